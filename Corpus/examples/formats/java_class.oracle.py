#!/usr/bin/env python3
"""Oracle for Schemas/examples/java_class.schema: the values `javap -v` (OpenJDK 17) prints for
Sample.class, parsed from its text, written as java_class.oracle.tsv.

    python3 Corpus/examples/formats/java_class.oracle.py

The schema reads the constant pool as one array, an element per entry: the entry at position p
of the pool (0-based, in slot order) is java_class.constant_pool[p]. javap numbers the entries by
slot (#13 Long, then #15: a Long takes two slots), so positions are counted over javap's entries,
not derived from the slot numbers.
"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "Sample.class")
TAGS = {"Utf8": 1, "Integer": 3, "Float": 4, "Long": 5, "Double": 6, "Class": 7, "String": 8,
        "Fieldref": 9, "Methodref": 10, "InterfaceMethodref": 11, "NameAndType": 12,
        "MethodHandle": 15, "MethodType": 16, "Dynamic": 17, "InvokeDynamic": 18, "Module": 19,
        "Package": 20}
# The entries that refer to others by number ("#2.#3", "#4:#5", a MethodHandle's "6:#7", a
# Class's "#8"), and the fields those numbers fill, in order.
REFERENCES = {"Class": ("name_index",), "String": ("string_index",),
              "Fieldref": ("class_index", "name_and_type_index"),
              "Methodref": ("class_index", "name_and_type_index"),
              "InterfaceMethodref": ("class_index", "name_and_type_index"),
              "NameAndType": ("name_index", "descriptor_index"),
              "Dynamic": ("bootstrap_method_attr_index", "name_and_type_index"),
              "InvokeDynamic": ("bootstrap_method_attr_index", "name_and_type_index"),
              "MethodHandle": ("reference_kind", "reference_index")}

text = subprocess.run(["javap", "-v", SAMPLE], capture_output=True, text=True, check=True).stdout
lines = text.splitlines()

# The constant pool: "#13 = Long               1234567890123l"
pool = {}          # slot -> (kind, argument text)
for line in lines:
    m = re.match(r"\s+#(\d+) = (\w+)\s+(.*?)(\s+// .*)?$", line)
    if m:
        pool[int(m.group(1))] = (m.group(2), m.group(3))
slots = sorted(pool)
position = {slot: p for p, slot in enumerate(slots)}

def entry(slot):
    return f"java_class.constant_pool[{position[slot]}]"

def utf8_slot(value):
    return next(s for s in slots if pool[s][0] == "Utf8" and pool[s][1] == value)

def class_slot(name):
    return next(s for s in slots if pool[s] == ("Class", f"#{utf8_slot(name)}"))

rows = Rows()
row = rows.add

def header(name):
    m = re.search(rf"^\s*{name}: (.*)$", text, re.M)
    return m.group(1)

row("java_class.minor_version", int(header("minor version")))
row("java_class.major_version", int(header("major version")))
last = slots[-1]
row("java_class.constant_pool_count", last + (2 if pool[last][0] in ("Long", "Double") else 1))

flags = re.sub(r"^\(0x[0-9a-f]+\) ", "", header("flags")).split(", ")    # the class's: the first "flags:" line
row("java_class.access_flags.acc_public", int("ACC_PUBLIC" in flags))
row("java_class.access_flags.acc_super", int("ACC_SUPER" in flags))
row("java_class.access_flags.acc_final", int("ACC_FINAL" in flags))
row("java_class.this_class", int(re.search(r"this_class: #(\d+)", text).group(1)))
row("java_class.super_class", int(re.search(r"super_class: #(\d+)", text).group(1)))
counts = re.search(r"interfaces: (\d+), fields: (\d+), methods: (\d+), attributes: (\d+)", text)
row("java_class.interfaces_count", int(counts.group(1)))
implements = re.search(r"^public class \S+ implements (\S+)", text, re.M).group(1)
row("java_class.interfaces[0]", class_slot(implements.replace(".", "/")))
row("java_class.fields_count", int(counts.group(2)))
row("java_class.methods_count", int(counts.group(3)))
row("java_class.attributes_count", int(counts.group(4)))

# Constant pool entries: one of each kind, the first and the last, and those around the Long.
for slot in slots:
    kind, argument = pool[slot]
    first_of_kind = slot == next(s for s in slots if pool[s][0] == kind)
    if not (first_of_kind or slot == last):
        continue
    base = entry(slot)
    row(base + ".index", slot)
    row(base + ".tag", TAGS[kind])
    if kind == "Utf8":
        row(base + ".info.bytes", argument)
        row(base + ".info.length", len(argument.encode("utf-8")))
    elif kind == "Long":
        row(base + ".info.value", int(argument.rstrip("l")))
    elif kind == "Double":
        row(base + ".info.value", repr(float(argument.rstrip("d"))))
    elif kind in REFERENCES:
        numbers = re.split(r"[.:]", argument)
        assert len(numbers) == len(REFERENCES[kind]), argument
        for field, number in zip(REFERENCES[kind], numbers):
            row(f"{base}.info.{field}", int(number.lstrip("#")))

# Fields and methods, in javap's order (the file's): "  public static final long BIG;"
members = re.split(r"\n\n", text[text.index("{\n") + 2:text.index("\n}\n")])
fields = [m for m in members if "descriptor:" in m and "Code:" not in m]
methods = [m for m in members if "Code:" in m]
for i, member in enumerate(fields):
    declaration = member.strip().splitlines()[0]
    name = re.search(r"(\w+);$", declaration).group(1)
    descriptor = re.search(r"descriptor: (\S+)", member).group(1)
    path = f"java_class.fields[{i}]"
    row(path + ".name_index", utf8_slot(name))
    row(path + ".descriptor_index", utf8_slot(descriptor))
    member_flags = re.search(r"flags: \(0x[0-9a-f]+\) (.*)", member).group(1).split(", ")
    row(path + ".access_flags.acc_static", int("ACC_STATIC" in member_flags))
    row(path + ".access_flags.acc_private", int("ACC_PRIVATE" in member_flags))
    value = re.search(r"ConstantValue: (long|double) (\S+)", member)
    if value:
        kind, literal = ("Long", value.group(2)) if value.group(1) == "long" else ("Double", value.group(2))
        row(path + ".attributes[0].info.constantvalue_index",
            next(s for s in slots if pool[s] == (kind, literal)))

# The last method: its Code attribute, exception table and line numbers.
i = len(methods) - 1
member = methods[i]
path = f"java_class.methods[{i}]"
declaration = member.strip().splitlines()[0]
row(path + ".name_index", utf8_slot(re.search(r"(\w+)\(", declaration).group(1)))
code = path + ".attributes[0].info"
stack = re.search(r"stack=(\d+), locals=(\d+)", member)
row(code + ".max_stack", int(stack.group(1)))
row(code + ".max_locals", int(stack.group(2)))
instructions = re.findall(r"^\s+(\d+): (\w+)", member, re.M)
offset, opcode = instructions[-1]
assert opcode in ("return", "areturn", "ireturn", "lreturn", "dreturn", "freturn", "athrow")
row(code + ".code_length", int(offset) + 1)         # the last instruction is one byte long
handlers = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+Class (\S+)$", member, re.M)
row(code + ".exception_table_length", len(handlers))
start, end, handler, type_name = handlers[0]
row(code + ".exception_table[0].start_pc", int(start))
row(code + ".exception_table[0].end_pc", int(end))
row(code + ".exception_table[0].handler_pc", int(handler))
row(code + ".exception_table[0].catch_type", class_slot(type_name))
line_numbers = re.findall(r"^\s+line (\d+): (\d+)$", member, re.M)
row(code + ".attributes[0].info.line_number_table_length", len(line_numbers))
row(code + ".attributes[0].info.line_number_table[1].line_number", int(line_numbers[1][0]))
row(code + ".attributes[0].info.line_number_table[1].start_pc", int(line_numbers[1][1]))

# Class attributes, in javap's order: SourceFile, BootstrapMethods.
source = re.search(r'^SourceFile: "(.*)"$', text, re.M).group(1)
row("java_class.attributes[0].info.sourcefile_index", utf8_slot(source))
bootstrap = re.search(r"^BootstrapMethods:\n\s+0: #(\d+) .*\n\s+Method arguments:\n\s+#(\d+)", text, re.M)
row("java_class.attributes[1].info.bootstrap_methods[0].bootstrap_method_ref", int(bootstrap.group(1)))
row("java_class.attributes[1].info.bootstrap_methods[0].bootstrap_arguments[0]", int(bootstrap.group(2)))

rows.write("java_class", "ClassFile", "Sample.class")
print(f"{len(rows)} values")
