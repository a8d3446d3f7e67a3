#!/usr/bin/env python3
"""Oracle for Schemas/examples/pe.schema: the values PyPI's pefile (2024.8.26) reads from hello.exe,
written as pe.oracle.tsv.

    pip install pefile==2024.8.26 && python3 Corpus/examples/formats/pe.oracle.py

The schema reads the import directory after the section table (`pe.import_directory`), each RVA
mapped to a file offset through the section that holds it, as pefile does.
"""
import os, sys
import pefile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
pe = pefile.PE(os.path.join(HERE, "hello.exe"))
rows = Rows()
row = rows.add

def fields(path, structure, names):
    """Each of `names` (the schema's) at `path`, from pefile's field of that name in CamelCase."""
    for name in names.split():
        row(f"{path}.{name}", getattr(structure, "".join(word.capitalize() for word in name.split("_"))))

def flags(path, structure, prefix, names):
    """Each of `names` (the schema's) at `path`, from pefile's flag `prefix` + the name in capitals."""
    for name in names.split():
        row(f"{path}.{name}", int(getattr(structure, prefix + name.upper())))

dos, coff, opt = pe.DOS_HEADER, pe.FILE_HEADER, pe.OPTIONAL_HEADER
row("pe.dos_header.e_magic", dos.e_magic)
row("pe.dos_header.e_lfanew", dos.e_lfanew)
row("pe.signature", pe.NT_HEADERS.Signature)
fields("pe.coff_header", coff, "machine number_of_sections time_date_stamp size_of_optional_header")
flags("pe.coff_header.characteristics", coff, "IMAGE_FILE_", "executable_image large_address_aware dll")
fields("pe.optional_header", opt, "magic major_linker_version minor_linker_version address_of_entry_point "
       "image_base section_alignment file_alignment size_of_image size_of_headers check_sum subsystem "
       "size_of_stack_reserve")
flags("pe.optional_header.dll_characteristics", opt, "IMAGE_DLLCHARACTERISTICS_",
      "nx_compat dynamic_base high_entropy_va")
row("pe.optional_header.number_of_rva_and_sizes", opt.NumberOfRvaAndSizes)
names = {"IMAGE_DIRECTORY_ENTRY_IMPORT": "import_table", "IMAGE_DIRECTORY_ENTRY_EXCEPTION": "exception_table",
         "IMAGE_DIRECTORY_ENTRY_BASERELOC": "base_relocation_table", "IMAGE_DIRECTORY_ENTRY_TLS": "tls_table",
         "IMAGE_DIRECTORY_ENTRY_IAT": "iat"}
for directory in opt.DATA_DIRECTORY:
    if directory.name in names:
        row(f"pe.optional_header.{names[directory.name]}.virtual_address", directory.VirtualAddress)
        row(f"pe.optional_header.{names[directory.name]}.size", directory.Size)

for i, section in enumerate(pe.sections):
    path = f"pe.sections[{i}]"
    row(path + ".name", section.Name.rstrip(b"\0").decode())
    if i in (0, len(pe.sections) - 1):
        row(path + ".virtual_size", section.Misc_VirtualSize)
        fields(path, section, "virtual_address size_of_raw_data pointer_to_raw_data")
        flags(path + ".characteristics", section, "IMAGE_SCN_", "cnt_code mem_execute mem_write")

# The import directory.
for d, entry in enumerate(pe.DIRECTORY_ENTRY_IMPORT):
    path = f"pe.import_directory[{d}]"
    row(path + ".import_lookup_table_rva", entry.struct.OriginalFirstThunk)
    row(path + ".name_rva", entry.struct.Name)
    row(path + ".import_address_table_rva", entry.struct.FirstThunk)
    row(path + ".name", entry.dll.decode())
    for j in (0, len(entry.imports) - 1):
        imp = entry.imports[j]
        row(f"{path}.import_lookup_table[{j}].hint_name.hint", imp.hint)
        row(f"{path}.import_lookup_table[{j}].hint_name.name", imp.name.decode())

rows.write("pe", "PE", "hello.exe")
print(f"{len(rows)} values")
