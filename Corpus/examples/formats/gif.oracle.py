#!/usr/bin/env python3
"""Oracle for Schemas/examples/gif.schema: Pillow (PIL.GifImagePlugin) reads sample.gif.

Every value comes from Pillow: the header and logical screen from `info["version"]`, `size`,
`info["background"]` and `global_palette`; the NETSCAPE2.0 extension from `info["extension"]` and
`info["loop"]`; the comment from `info["comment"]`; each frame's graphic control values from
`info["duration"]`, `disposal_method` and the frame's transparency; its image descriptor from the
frame's tile (extent, then the LZW minimum code size and interlace flag) and its local palette.
Pillow keeps a later frame's transparency and palette in `_frame_transparency` and
`_frame_palette` (single-underscore attributes: Pillow 13's names).

Pillow does not say in which order the blocks came; the paths assume the order Pillow's writer
uses (and the GIF grammar allows): the NETSCAPE2.0 application extension, the comment, then a
graphic control extension and an image per frame, then the trailer.

    python3 Corpus/examples/formats/gif.oracle.py
"""
import os, sys
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "sample.gif")
rows = Rows()
row = rows.add

def table_size(palette_bytes):
    """The 3-bit 'Size of Color Table' field: the table holds 2^(size+1) entries."""
    entries = len(palette_bytes) // 3
    return entries.bit_length() - 2

def color(table, palette, index):
    """Entry `index` of a color table: its red, green and blue bytes."""
    for channel, value in zip(("red", "green", "blue"), palette[3 * index:3 * index + 3]):
        row(f"{table}[{index}].{channel}", value)

with Image.open(sample) as im:
    version = im.info["version"]
    row("gif.signature", version[:3].decode("ascii"))
    row("gif.version", version[3:].decode("ascii"))
    row("gif.logical_screen_width", im.size[0])
    row("gif.logical_screen_height", im.size[1])
    global_palette = im.global_palette.palette if im.global_palette else None
    row("gif.global_color_table_flag", 1 if global_palette else 0)
    row("gif.size_of_global_color_table", table_size(global_palette))
    row("gif.background_color_index", im.info["background"])
    color("gif.global_color_table", global_palette, 0)

    # blocks[0]: NETSCAPE2.0 application extension; Pillow keeps its first sub-block.
    identifier = im.info["extension"][0]
    row("gif.blocks[0].extension.application_identifier", identifier[:8].decode("ascii"))
    row("gif.blocks[0].extension.application_authentication_code", identifier[8:11])
    row("gif.blocks[0].extension.application_data[0].loop_count", im.info["loop"])
    # blocks[1]: the comment, in one sub-block.
    row("gif.blocks[1].extension.comment_data[0].data_values", im.info["comment"].decode("ascii"))

    for frame in range(im.n_frames):
        im.seek(frame)
        control, image = f"gif.blocks[{2 + 2 * frame}].extension", f"gif.blocks[{3 + 2 * frame}].image"
        transparency = im.info.get("transparency") if frame == 0 else im._frame_transparency
        row(f"{control}.delay_time", im.info["duration"] // 10)
        row(f"{control}.disposal_method", im.disposal_method)
        row(f"{control}.transparent_color_flag", 0 if transparency is None else 1)
        if transparency is not None:
            row(f"{control}.transparent_color_index", transparency)
        (_, (x0, y0, x1, y1), _, (code_size, interlace, _)) = im.tile[0]
        row(f"{image}.image_left_position", x0)
        row(f"{image}.image_top_position", y0)
        row(f"{image}.image_width", x1 - x0)
        row(f"{image}.image_height", y1 - y0)
        local = im._frame_palette is not im.global_palette
        row(f"{image}.local_color_table_flag", 1 if local else 0)
        if local:
            palette = im._frame_palette.palette
            row(f"{image}.size_of_local_color_table", table_size(palette))
            if frame == 1:   # blue, where frame 2 has red
                color(f"{image}.local_color_table", palette, 1)
        row(f"{image}.lzw_minimum_code_size", code_size)

rows.write("gif", "GIF", "sample.gif")
