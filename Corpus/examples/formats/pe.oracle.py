#!/usr/bin/env python3
"""Oracle for Schemas/examples/pe.schema: the values PyPI's pefile (2024.8.26) reads from hello.exe,
written as pe.oracle.tsv.

    pip install pefile==2024.8.26 && python3 Corpus/examples/formats/pe.oracle.py

The schema reads the import directory after the section table (`pe.import_directory`), each RVA
mapped to a file offset through the section that holds it, as pefile does.
"""
import os
import pefile

HERE = os.path.dirname(os.path.abspath(__file__))
pe = pefile.PE(os.path.join(HERE, "hello.exe"))
rows = []
def row(path, value):
    rows.append((path, value))

dos, coff, opt = pe.DOS_HEADER, pe.FILE_HEADER, pe.OPTIONAL_HEADER
row("pe.dos_header.e_magic", dos.e_magic)
row("pe.dos_header.e_lfanew", dos.e_lfanew)
row("pe.signature", pe.NT_HEADERS.Signature)
row("pe.coff_header.machine", coff.Machine)
row("pe.coff_header.number_of_sections", coff.NumberOfSections)
row("pe.coff_header.time_date_stamp", coff.TimeDateStamp)
row("pe.coff_header.size_of_optional_header", coff.SizeOfOptionalHeader)
row("pe.coff_header.characteristics.executable_image", int(coff.IMAGE_FILE_EXECUTABLE_IMAGE))
row("pe.coff_header.characteristics.large_address_aware", int(coff.IMAGE_FILE_LARGE_ADDRESS_AWARE))
row("pe.coff_header.characteristics.dll", int(coff.IMAGE_FILE_DLL))
row("pe.optional_header.magic", opt.Magic)
row("pe.optional_header.major_linker_version", opt.MajorLinkerVersion)
row("pe.optional_header.minor_linker_version", opt.MinorLinkerVersion)
row("pe.optional_header.address_of_entry_point", opt.AddressOfEntryPoint)
row("pe.optional_header.image_base", opt.ImageBase)
row("pe.optional_header.section_alignment", opt.SectionAlignment)
row("pe.optional_header.file_alignment", opt.FileAlignment)
row("pe.optional_header.size_of_image", opt.SizeOfImage)
row("pe.optional_header.size_of_headers", opt.SizeOfHeaders)
row("pe.optional_header.check_sum", opt.CheckSum)
row("pe.optional_header.subsystem", opt.Subsystem)
row("pe.optional_header.size_of_stack_reserve", opt.SizeOfStackReserve)
row("pe.optional_header.dll_characteristics.nx_compat", int(opt.IMAGE_DLLCHARACTERISTICS_NX_COMPAT))
row("pe.optional_header.dll_characteristics.dynamic_base", int(opt.IMAGE_DLLCHARACTERISTICS_DYNAMIC_BASE))
row("pe.optional_header.dll_characteristics.high_entropy_va", int(opt.IMAGE_DLLCHARACTERISTICS_HIGH_ENTROPY_VA))
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
        row(path + ".virtual_address", section.VirtualAddress)
        row(path + ".size_of_raw_data", section.SizeOfRawData)
        row(path + ".pointer_to_raw_data", section.PointerToRawData)
        row(path + ".characteristics.cnt_code", int(section.IMAGE_SCN_CNT_CODE))
        row(path + ".characteristics.mem_execute", int(section.IMAGE_SCN_MEM_EXECUTE))
        row(path + ".characteristics.mem_write", int(section.IMAGE_SCN_MEM_WRITE))

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

with open(os.path.join(HERE, "pe.oracle.tsv"), "w", encoding="utf-8") as out:
    out.write("# schema: Schemas/examples/pe.schema\n# root: PE\n# sample: Corpus/examples/formats/hello.exe\n")
    for path, value in rows:
        out.write(f"{path}\t{value}\n")
print(f"{len(rows)} values")
