#!/usr/bin/env python3
"""Write ext2.oracle.tsv from e2fsprogs' own reading of sample.ext2.

`dumpe2fs` (the superblock with -h, then the group's descriptor) and `debugfs` (`stat` of
inodes, `ls` and `ls -l` of directories, `cat` of files) are run on the image and their text
output parsed; no value is taken from dissect. Debian's e2fsprogs package provides both.
"""
import calendar
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample.ext2")
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")


def run(*command):
    return subprocess.run(command, capture_output=True, env=ENV, check=True).stdout


def debugfs(request):
    return run("debugfs", "-R", request, SAMPLE)


def epoch(text):
    return calendar.timegm(time.strptime(text.strip(), "%a %b %d %H:%M:%S %Y"))


rows = Rows()
sb = "ext2.superblock."

# dumpe2fs -h: "Name:   value" lines
header = {}
for line in run("dumpe2fs", "-h", SAMPLE).decode().splitlines():
    key, sep, value = line.partition(":")
    if sep:
        header[key.strip()] = value.strip()
features = header["Filesystem features"].split()
rows.extend([
    (sb + "s_inodes_count", int(header["Inode count"])),
    (sb + "s_blocks_count", int(header["Block count"])),
    (sb + "s_free_blocks_count", int(header["Free blocks"])),
    (sb + "s_free_inodes_count", int(header["Free inodes"])),
    (sb + "s_log_block_size", int(header["Block size"]).bit_length() - 11),  # 1024 << n
    (sb + "s_inodes_per_group", int(header["Inodes per group"])),
    (sb + "s_magic", int(header["Filesystem magic number"], 16)),
    (sb + "s_state", {"clean": 1, "not clean": 2}[header["Filesystem state"]]),
    (sb + "s_rev_level", int(header["Filesystem revision #"].split()[0])),
    (sb + "s_first_ino", int(header["First inode"])),
    (sb + "s_inode_size", int(header["Inode size"])),
    (sb + "s_feature_compat.ext_attr", int("ext_attr" in features)),
    (sb + "s_feature_compat.dir_index", int("dir_index" in features)),
    (sb + "s_feature_incompat.filetype", int("filetype" in features)),
    (sb + "s_feature_ro_compat.sparse_super", int("sparse_super" in features)),
    (sb + "s_uuid", header["Filesystem UUID"].replace("-", "")),
    (sb + "s_volume_name", header["Filesystem volume name"]),
    (sb + "s_hash_seed", header["Directory Hash Seed"].replace("-", "")),
    (sb + "s_def_hash_version", {"legacy": 0, "half_md4": 1, "tea": 2}[header["Default directory hash"]]),
    (sb + "s_mkfs_time", epoch(header["Filesystem created"])),
])

# dumpe2fs: the group's descriptor
groups = run("dumpe2fs", SAMPLE).decode()
group = groups[groups.index("Group 0:"):]
gd = "ext2.group_descriptors[0]."
rows.extend([
    (gd + "bg_block_bitmap", int(re.search(r"Block bitmap at (\d+)", group)[1])),
    (gd + "bg_inode_bitmap", int(re.search(r"Inode bitmap at (\d+)", group)[1])),
    (gd + "bg_inode_table", int(re.search(r"Inode table at (\d+)", group)[1])),
])
free = re.search(r"(\d+) free blocks, (\d+) free inodes, (\d+) directories", group)
rows.extend([
    (gd + "bg_free_blocks_count", int(free[1])),
    (gd + "bg_used_dirs_count", int(free[3])),
])


def inode_path(number):
    # one group: inode N is element N - 1 of its inode table
    return f"{gd}inode_table[{number - 1}]"


def stat(number):
    text = debugfs(f"stat <{number}>").decode()
    return {
        "mode": int(re.search(r"Mode:\s+(\d+)", text)[1], 8),
        "type": re.search(r"Type: (\S+)", text)[1],
        "size": int(re.search(r"Size: (\d+)", text)[1]),
        "links": int(re.search(r"Links: (\d+)", text)[1]),
        "blockcount": int(re.search(r"Blockcount: (\d+)", text)[1]),
        "ctime": int(re.search(r" ctime: 0x([0-9a-f]+)", text)[1], 16),
        "crtime": int(re.search(r"crtime: 0x([0-9a-f]+)", text)[1], 16),
        "extra": int(re.search(r"Size of extra inode fields: (\d+)", text)[1]),
        "blocks": re.search(r"BLOCKS:\n(.*)\n", text)[1] if "BLOCKS:" in text else "",
        "link": re.search(r'Fast link dest: "(.*)"', text)[1] if "Fast link dest" in text else None,
    }


FORMATS = {"directory": 4, "regular": 8, "symlink": 10}

# The root directory's inode
root = stat(2)
r = inode_path(2) + "."
rows.extend([
    (r + "inode_number", 2),
    (r + "i_mode.permissions", root["mode"]),
    (r + "i_mode.format", FORMATS[root["type"]]),
    (r + "i_size", root["size"]),
    (r + "i_links_count", root["links"]),
    (r + "i_blocks", root["blockcount"]),
    (r + "i_ctime", root["ctime"]),
    (r + "i_crtime", root["crtime"]),
    (r + "i_extra_isize", root["extra"]),
    (r + "i_block.direct_blocks[0].block", int(re.match(r"\(0\):(\d+)", root["blocks"])[1])),
])


def directory(path, number):
    """`ls` gives each entry's inode, rec_len and name, `ls -l` its file type, in block order."""
    entries = re.findall(r"(\d+)\s+\((\d+)\)\s+(\S+)", debugfs(f"ls {path}").decode())
    types = re.findall(r"^\s*\d+\s+\d+\s+\((\d+)\)", debugfs(f"ls -l {path}").decode(), re.M)
    base = inode_path(number) + ".i_block.direct_blocks[0].content.entries"
    for index, ((inode, rec_len, name), file_type) in enumerate(zip(entries, types)):
        if name in (".", "..") and path != "/":
            continue
        rows.add(f"{base}[{index}].inode", int(inode))
        rows.add(f"{base}[{index}].name", name)
        if index == len(entries) - 1:          # the last entry's rec_len reaches the block's end
            rows.add(f"{base}[{index}].rec_len", int(rec_len))
        if file_type != "1":                   # directories and the symlink
            rows.add(f"{base}[{index}].file_type", int(file_type))


directory("/", 2)
sub = int(re.search(r"(\d+)\s+\(\d+\)\s+sub\b", debugfs("ls /").decode())[1])
directory("/sub", sub)


def lookup(path):
    return int(re.search(r"Inode: (\d+)", debugfs(f"stat {path}").decode())[1])


# A small file, in its one block
hello = lookup("/hello.txt")
rows.add(inode_path(hello) + ".i_block.direct_blocks[0].content", debugfs("cat /hello.txt").hex())
# The fast symlink's target, in i_block
link = lookup("/link")
rows.add(inode_path(link) + ".i_block.target", stat(link)["link"])
# The large file: its indirect block and the last block, reached through it
numbers = lookup("/numbers.txt")
info = stat(numbers)
n = inode_path(numbers) + "."
rows.add(n + "inode_number", numbers)
rows.add(n + "i_size", info["size"])
rows.add(n + "i_block.indirect_block", int(re.search(r"\(IND\):(\d+)", info["blocks"])[1]))
first, last, start, _ = map(int, re.search(r"\((\d+)-(\d+)\):(\d+)-(\d+)$", info["blocks"]).groups())
block_size = int(header["Block size"])
data = debugfs("cat /numbers.txt")
rows.add(n + f"i_block.indirect_blocks[{last - 12}].block", start + last - first)
rows.add(n + f"i_block.indirect_blocks[{last - 12}].content", data[last * block_size:].hex())

out = rows.write("ext2", "Ext2", "sample.ext2")
print(f"{out}: {len(rows)} values")
