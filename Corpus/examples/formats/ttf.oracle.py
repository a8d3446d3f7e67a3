#!/usr/bin/env python3
"""Oracle for Schemas/examples/ttf.schema: fontTools (PyPI fonttools 4.68.0) reads dejavu-hi.ttf
and this script writes ttf.oracle.tsv: the table directory, head, hhea, maxp, hmtx, loca and the
glyphs, cmap, name, OS/2 and post, each value from fontTools' parse of the font.

usage: python3 Corpus/examples/formats/ttf.oracle.py   (from the repository's root or anywhere)
"""
import os, sys
from fontTools.ttLib import TTFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
font = TTFont(os.path.join(here, "dejavu-hi.ttf"))
reader = font.reader
rows = Rows()

def row(path, value):
    rows.add(f"ttf.{path}", value)

# Offset table and table records. fontTools keeps the records ordered by offset, not as the
# directory lists them; the directory is sorted by tag (OpenType requires it, fontTools writes it so).
row("sfnt_version", int.from_bytes(bytes(reader.sfntVersion, "latin-1"), "big"))
row("num_tables", reader.numTables)
row("search_range", reader.searchRange)
for i, tag in enumerate(sorted(reader.tables, key=lambda t: bytes(t, "latin-1"))):
    entry = reader.tables[tag]
    row(f"table_records[{i}].table_tag", str(tag).rstrip(" "))    # the schema's text leaves the space padding out
    if tag in ("head", "loca", "glyf", "name"):
        row(f"table_records[{i}].offset", entry.offset)
        row(f"table_records[{i}].length", entry.length)

head = font["head"]
for name, attr in [("magic_number", "magicNumber"), ("units_per_em", "unitsPerEm"), ("created", "created"),
                   ("x_min", "xMin"), ("index_to_loc_format", "indexToLocFormat")]:
    row(f"head.{name}", getattr(head, attr))

hhea = font["hhea"]
row("hhea.ascender", hhea.ascent)
row("hhea.number_of_h_metrics", hhea.numberOfHMetrics)

maxp = font["maxp"]
row("maxp.num_glyphs", maxp.numGlyphs)

order = font.getGlyphOrder()
hmtx = font["hmtx"]
for i, name in enumerate(order[:hhea.numberOfHMetrics]):
    row(f"hmtx.h_metrics[{i}].advance_width", hmtx[name][0])

# loca: fontTools gives the byte offsets (the short format stores them halved); each glyph with
# outlines is read at its offset. A simple glyph's first flag, every point's absolute coordinates
# (glyph.coordinates, which fontTools sums from the stored deltas) and, for its first points, the
# stored values: fontTools unpacks the flags (one per point) and the stored coordinates
# (decompileCoordinatesRaw: a short vector's magnitude, an int16, nothing for "same").
loca = font["loca"]
glyf = font["glyf"]
glyf_data = reader["glyf"]
from fontTools.ttLib.tables._g_l_y_f import Glyph, flagXShort, flagXsame, flagYShort, flagYsame

def stored_values(path, axis, flags, values, short, same, points):
    """The fields a point's stored coordinate fills: `short_vector` (one byte) or `long_vector`
    (an int16); a "same" point has neither."""
    k = 0
    for point, flag in enumerate(flags):
        field = "short_vector" if flag & short else None if flag & same else "long_vector"
        if field is None:
            continue
        if point < points:
            row(f"{path}.{axis}_coordinates[{point}].{field}", values[k])
        k += 1
    assert k == len(values)

for i in range(len(loca)):
    row(f"loca.offsets[{i}].glyph_offset", loca[i])
for i, name in enumerate(order):
    glyph = glyf[name]
    if glyph.numberOfContours == 0:
        continue
    row(f"loca.offsets[{i}].glyph.number_of_contours", glyph.numberOfContours)
    for k, end in enumerate(glyph.endPtsOfContours):
        row(f"loca.offsets[{i}].glyph.end_pts_of_contours[{k}]", end)
    if glyph.numberOfContours > 0:
        data = glyf_data[loca[i] + 10:loca[i + 1]]
        position = 2 * glyph.numberOfContours + 2 + len(glyph.program.getBytecode())
        flags, xs, ys = Glyph().decompileCoordinatesRaw(glyph.endPtsOfContours[-1] + 1, data, position)
        path = f"loca.offsets[{i}].glyph"
        for bit, name in [(0x01, "on_curve_point"), (0x02, "x_short_vector"), (0x04, "y_short_vector"),
                          (0x08, "repeat_flag"), (0x10, "x_is_same_or_positive_x_short_vector"),
                          (0x20, "y_is_same_or_positive_y_short_vector")]:
            row(f"{path}.flags[0].{name}", int(bool(flags[0] & bit)))
        stored_values(path, "x", flags, xs, flagXShort, flagXsame, 4)
        stored_values(path, "y", flags, ys, flagYShort, flagYsame, 4)
        for point, (x, y) in enumerate(glyph.coordinates):
            row(f"{path}.x_coordinates[{point}].x", x)
            row(f"{path}.y_coordinates[{point}].y", y)

# cmap: each subtable's header, and the format 4 segments. fontTools keeps only the mapping;
# for codes that are not consecutive (checked) its writer makes one segment per code with
# idRangeOffset 0 and idDelta = glyph id - code (OpenType's formula: glyph = code + idDelta mod
# 65536), then the final segment 0xFFFF. So the segment arrays follow from the mapping.
cmap = font["cmap"]
row("cmap.num_tables", len(cmap.tables))
for i, table in enumerate(cmap.tables):
    base = f"cmap.encoding_records[{i}]"
    row(f"{base}.platform_id", table.platformID)
    row(f"{base}.encoding_id", table.platEncID)
    if i == 0:
        row(f"{base}.subtable.format", table.format)
        row(f"{base}.subtable.length", table.length)
    if table.format == 4 and i == 0:
        codes = sorted(table.cmap)
        assert all(b - a > 1 for a, b in zip(codes, codes[1:])), "consecutive codes: segments would merge"
        row(f"{base}.subtable.seg_count_x2", 2 * (len(codes) + 1))
        for k, code in enumerate(codes):
            gid = font.getGlyphID(table.cmap[code])
            delta = (gid - code) % 65536
            row(f"{base}.subtable.start_code[{k}]", code)
            row(f"{base}.subtable.id_delta[{k}]", delta - 65536 if delta >= 32768 else delta)

name = font["name"]
row("name.count", len(name.names))
for i, record in enumerate(name.names):
    if i == 0:
        row(f"name.name_records[{i}].platform_id", record.platformID)
        row(f"name.name_records[{i}].name_id", record.nameID)
    row(f"name.name_records[{i}].string", record.toUnicode())

os2 = font["OS/2"]
row("os2.version", os2.version)
row("os2.us_weight_class", os2.usWeightClass)
row("os2.ach_vend_id", os2.achVendID)
row("os2.us_last_char_index", os2.usLastCharIndex)

post = font["post"]
row("post.version", int(post.formatType * 0x10000))
row("post.underline_position", post.underlinePosition)

rows.write("ttf", "TTF", "dejavu-hi.ttf")
print(f"{len(rows)} values")
