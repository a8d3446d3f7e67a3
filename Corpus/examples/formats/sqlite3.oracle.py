#!/usr/bin/env python3
"""Write sqlite3.oracle.tsv: what SQLite itself reads in sample.sqlite3.

The header fields come from APSW's apsw.ext.dbinfo (pip install apsw), which reads the 100-byte
database header (Debian's sqlite3 CLI has `.dbinfo`, but its library is built without the
sqlite_dbpage table that command needs). The pages' cell counts come from the dbstat virtual
table, the sqlite_schema rows and the tables' rows from Python's sqlite3 module. No value is
taken from dissect.
"""
import os
import sqlite3
import sys

import apsw
import apsw.ext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample.sqlite3")

ENCODINGS = {"UTF-8": 1, "UTF-16le": 2, "UTF-16be": 3}

rows = Rows()


def add_value(prefix, value):
    """A column's value at the schema's `value` field below `prefix`, as dissect's JSON gives it."""
    # Serial types 8 and 9 (schema format 4) hold the integers 0 and 1 in no bytes: the schema
    # shows them as a computed value one level down.
    if isinstance(value, int) and value in (0, 1):
        rows.add(prefix + ".value.value", value)
    else:
        rows.add(prefix + ".value", "" if value is None else value)   # NULL: serial type 0, no bytes


info = apsw.ext.dbinfo(apsw.Connection(SAMPLE, flags=apsw.SQLITE_OPEN_READONLY))[0]
h = "sqlite3.header."
rows.extend([
    (h + "header_string", info.header.rstrip(b"\0").decode("ascii")),
    (h + "page_size", info.page_size),
    (h + "file_format_write_version", info.write_format),
    (h + "file_format_read_version", info.read_format),
    (h + "reserved_space", info.reserved_bytes),
    (h + "file_change_counter", info.file_change_counter),
    (h + "database_size", info.page_count),
    (h + "freelist_page_count", info.freelist_pages),
    (h + "schema_cookie", info.schema_cookie),
    (h + "schema_format", info.schema_format),
    (h + "default_page_cache_size", info.default_cache_size),
    (h + "largest_root_btree_page", info.autovacuum_top_root),
    (h + "text_encoding", ENCODINGS[info.text_encoding]),
    (h + "user_version", info.user_version),
    (h + "incremental_vacuum", int(info.incremental_vacuum)),
    (h + "application_id", info.application_id),
    (h + "version_valid_for", info.version_valid_for),
    (h + "sqlite_version_number", info.sqlite_version),
])

db = sqlite3.connect(f"file:{SAMPLE}?mode=ro", uri=True)
cells = {row[0]: row[1] for row in db.execute("SELECT name, ncell FROM dbstat WHERE path = '/'")}
rows.add("sqlite3.sqlite_schema.cell_count", cells["sqlite_schema"])

schema = db.execute("SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid").fetchall()
for index, (rowid, type_, name, tbl_name, rootpage, sql) in enumerate(schema):
    cell = f"sqlite3.sqlite_schema.cell_pointers[{index}].cell"
    rows.add(cell + ".rowid.value", rowid)
    for column, value in (("type", type_), ("name", name), ("tbl_name", tbl_name), ("rootpage", rootpage), ("sql", sql)):
        if column != "rootpage":
            add_value(f"{cell}.payload.{column}", value)
        elif rootpage != 0 or info.schema_format < 4:
            # The schema reads rootpage as an integer; a 0 in schema format 4 (serial type 8) has
            # no bytes and no field.
            rows.add(f"{cell}.payload.rootpage", rootpage)
    btree = cell + ".payload.btree"
    rows.add(btree + ".cell_count", cells[name])
    # One cell per row, in rowid order, on the table's single leaf page.
    columns = [r[1] for r in db.execute(f"PRAGMA table_info({name})")]
    pk = [r[1] for r in db.execute(f"PRAGMA table_info({name})") if r[5]]
    for position, record in enumerate(db.execute(f"SELECT rowid, * FROM {name} ORDER BY rowid")):
        row_cell = f"{btree}.cell_pointers[{position}].cell"
        rows.add(row_cell + ".rowid.value", record[0])
        for number, (column, value) in enumerate(zip(columns, record[1:])):
            # An INTEGER PRIMARY KEY is the rowid; the record holds NULL in its place.
            add_value(f"{row_cell}.payload.values[{number}]", None if column in pk else value)

out = rows.write("sqlite3", "SQLite3", "sample.sqlite3")
print(f"{out}: {len(rows)} values")
