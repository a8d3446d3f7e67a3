#!/usr/bin/python3
"""The HTML view (`dissect -f html`) in a real browser: headless Chromium driven by Selenium.

    make test-browser                      # installs chromium, chromium-driver, python3-selenium if missing
    Tests/Browser/test_html_view.py [--dissect PATH] [--screenshots] [--sizes 1000,10000,100000]

Checks, against the JSON view of the same frames (an independent oracle for offsets):
clicking a field highlights exactly its bytes; clicking a byte selects the innermost field
owning it and opens the tree to it; a malformed frame shows its error and marks the bytes
after it; search finds a field by path and by value, and the next on repeat; the keyboard
moves through packets; a reassembled unit says where its bytes came from. Then a benchmark
(figures, not assertions): page size, load time and time to select a packet for captures of
1k, 10k and 100k packets made by scripts/generate-capture.py. --screenshots writes
docs/images/html-*.png.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURES = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        FAILURES.append(message)


def dissect(binary, args, out=None, stdin=None):
    with open(out, "wb") if out else tempfile.TemporaryFile() as sink:
        # `dissect hex` exits 2 for bytes that do not match their schema (a malformed sample), after
        # writing its whole output; anything else but 0 is a failure.
        result = subprocess.run([binary] + args, cwd=ROOT, stdout=sink, stdin=stdin,
                                env=dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC"))
        if result.returncode not in ((0, 2) if args[:1] == ["hex"] else (0,)):
            raise subprocess.CalledProcessError(result.returncode, [binary] + args)
        if out is None:
            sink.seek(0)
            return sink.read().decode()
    return None


def json_frames(binary, args, stdin_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else None
    try:
        return [json.loads(line) for line in dissect(binary, args + ["-f", "json"], stdin=stdin).splitlines() if line]
    finally:
        if stdin:
            stdin.close()


def page(binary, args, name, workdir, stdin_path=None):
    path = os.path.join(workdir, name + ".html")
    stdin = open(stdin_path, "rb") if stdin_path else None
    try:
        dissect(binary, args + ["-f", "html"], out=path, stdin=stdin)
    finally:
        if stdin:
            stdin.close()
    return path


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--js-flags=--max-old-space-size=4096"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(600)
    driver.set_script_timeout(600)
    return driver


def load(driver, path):
    start = time.monotonic()
    driver.get("file://" + path)
    WebDriverWait(driver, 600).until(lambda d: d.execute_script("return document.body && document.body.dataset.ready === '1'"))
    return time.monotonic() - start


def highlighted(driver):
    return sorted({int(s.get_attribute("data-o")) for s in driver.find_elements(By.CSS_SELECTOR, "#hex span.hl[data-o]")})


def selected_path(driver):
    return driver.execute_script("var r = document.querySelector('#tree .r.sel'); return r && r.parentNode.dataset.path")


def innermost(fields, offset):
    """The last field in pre-order whose bytes hold `offset` (derived values have none)."""
    owner = None
    for field in fields:
        if not field.get("derived") and field["offset"] <= offset < field["offset"] + field["length"]:
            owner = field
    return owner


def select_packet(driver, index):
    driver.execute_script("window.dissect.select(arguments[0])", index)


def click_field(driver, path):
    # Open the tree down to the row (as a user would, one node at a time), then click it.
    driver.execute_script("""
        var n = document.querySelector('#tree .n[data-path="' + arguments[0] + '"]');
        for (var up = n.parentNode; up && up.id !== 'tree'; up = up.parentNode) if (up.classList.contains('n')) up.classList.remove('closed');
        n.firstChild.scrollIntoView({block: 'center'});""", path)
    driver.find_element(By.CSS_SELECTOR, '#tree .n[data-path="%s"] > .r' % path).click()


def test_fields_and_bytes(driver, binary, workdir):
    capture = "Corpus/captures/dns.pcap"
    frames = json_frames(binary, ["-r", capture])
    load(driver, page(binary, ["-r", capture], "dns", workdir))
    check(driver.execute_script("return window.dissect.count()") == len(frames), "the page lists every packet (%d)" % len(frames))
    index = 1  # a response: answers, compressed names
    select_packet(driver, index)
    fields = frames[index]["fields"]
    for path in ["eth.src", "ip.src", "ip.flags.df", "ip.fragment_offset", "udp.dst_port", "dns.id",
                 "dns.questions[0].name", "dns.answers[0].rdata"]:
        field = next((f for f in fields if f["path"] == path), None)
        if field is None:
            check(False, "frame 2 has %s" % path)
            continue
        click_field(driver, path)
        expected = list(range(field["offset"], field["offset"] + field["length"]))
        got = highlighted(driver)
        check(got == expected, "clicking %s highlights exactly bytes %s (got %s)" % (path, expected[:6], got[:6]))
        if "bit_width" in field:
            bits = driver.find_elements(By.CSS_SELECTOR, "#hex span.hl.bits")
            status = driver.find_element(By.ID, "status").text
            check(len(bits) > 0 and "bits %d\u2013%d" % (field["bit_offset"], field["bit_offset"] + field["bit_width"] - 1) in status,
                  "%s is marked as bits, with its bit range (%s)" % (path, status))
            # Its own bits are drawn: the bytes in binary, exactly its bits marked, reading its value.
            marked = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#status .bits .bit")]
            value = int("".join(marked), 2) if marked else None
            check(len(marked) == field["bit_width"] and value == field["value"],
                  "%s draws its %d bits, reading %s (got %s)" % (path, field["bit_width"], field["value"], marked))
    for offset in [0, 13, 20, 27, 44, 60, 70, 90]:
        if offset >= frames[index]["length"]:
            continue
        driver.execute_script("document.querySelector('#tree').scrollTop = 0")
        driver.find_element(By.CSS_SELECTOR, '#hex span[data-o="%d"]' % offset).click()
        owner = innermost(fields, offset)
        got = selected_path(driver)
        visible = driver.execute_script("var r = document.querySelector('#tree .r.sel'); return !!(r && r.offsetParent)")
        check(owner is not None and got == owner["path"] and visible,
              "clicking byte %d selects its innermost field %s, shown in the open tree (got %s)" % (offset, owner and owner["path"], got))
    # Keyboard: down moves to the next packet, up back.
    driver.find_element(By.ID, "list").click()
    select_packet(driver, 0)
    driver.find_element(By.ID, "list").send_keys(Keys.ARROW_DOWN)
    check(driver.execute_script("return window.dissect.current()") == 1, "down arrow selects the next packet")
    driver.find_element(By.ID, "list").send_keys(Keys.ARROW_UP)
    check(driver.execute_script("return window.dissect.current()") == 0, "up arrow selects the previous packet")
    # Search by path, then by value, then the next match on repeat.
    box = driver.find_element(By.ID, "search")
    box.clear()
    box.send_keys("dns.answers[0].rdata", Keys.ENTER)
    first = (driver.execute_script("return window.dissect.current()"), selected_path(driver))
    expect = next(k for k, f in enumerate(frames) if any(x["path"] == "dns.answers[0].rdata" for x in f["fields"]))
    check(first == (expect, "dns.answers[0].rdata"), "search by path finds packet %d's field (got %s)" % (expect + 1, first))
    box.send_keys(Keys.ENTER)
    second = driver.execute_script("return window.dissect.current()")
    check(second > first[0] and selected_path(driver) == "dns.answers[0].rdata", "Enter again finds the next match (packet %d)" % (second + 1))
    value = "2001:db8::10"
    box.clear()
    box.send_keys(value, Keys.ENTER)
    found = [x for x in driver.execute_script("var p = window.dissect.packet(window.dissect.current()); return [p.fields[window.dissect.selected()][5]]")]
    check(value in (found[0] or ""), "search by value finds a field showing %s (got %s)" % (value, found))
    return driver


def test_malformed(driver, binary, workdir):
    for name in ["truncated-ipv4", "dns-compression-loop"]:
        sample = os.path.join(ROOT, "Corpus/samples/%s.hex" % name)
        frame = json_frames(binary, ["hex"], stdin_path=sample)[0]
        load(driver, page(binary, ["hex"], name, workdir, stdin_path=sample))
        info = driver.find_element(By.ID, "info").text
        message = frame["error"]["message"]
        check(message in info, "%s shows its error (%s)" % (name, message))
        row = driver.find_element(By.CSS_SELECTOR, "#tree .r.er")
        check(message in row.text and row.is_displayed(), "%s: the failing field is marked in the tree with the error" % name)
        unparsed = sorted(o for g in frame["gaps"] if g["kind"] == "unparsed" for o in range(g["offset"], g["offset"] + g["length"]))
        marked = sorted({int(e.get_attribute("data-o")) for e in driver.find_elements(By.CSS_SELECTOR, "#hex span.gp")})
        check(marked == unparsed, "%s: the %d bytes after the error are marked" % (name, len(unparsed)))
        if name == "dns-compression-loop":
            check(len(unparsed) > 0, "dns-compression-loop has bytes after its error")


def test_reassembly(driver, binary, workdir):
    capture = "Corpus/reassembly/http-large.pcap"
    frames = json_frames(binary, ["-r", capture])
    load(driver, page(binary, ["-r", capture], "reassembly", workdir))
    unit = next(k for k, f in enumerate(frames) if "provenance" in f)
    select_packet(driver, unit)
    info = driver.find_element(By.ID, "info").text
    runs = frames[unit]["provenance"]
    check("reassembled" in info and all("frame %d offset %d" % (r["frame"], r["frame_offset"]) in info for r in runs),
          "a reassembled unit lists where its %d runs of bytes came from" % len(runs))
    driver.find_element(By.CSS_SELECTOR, '#info a[data-frame="%d"]' % runs[0]["frame"]).click()
    check(frames[driver.execute_script("return window.dissect.current()")].get("frame") == runs[0]["frame"],
          "its frame link selects frame %d" % runs[0]["frame"])


def screenshots(driver, binary, workdir):
    images = os.path.join(ROOT, "docs/images")
    os.makedirs(images, exist_ok=True)
    load(driver, page(binary, ["-r", "Corpus/captures/dns.pcap"], "dns", workdir))
    select_packet(driver, 1)
    click_field(driver, "dns.answers[0].rdata")
    driver.save_screenshot(os.path.join(images, "html-dns.png"))
    sample = os.path.join(ROOT, "Corpus/samples/truncated-ipv4.hex")
    load(driver, page(binary, ["hex"], "malformed", workdir, stdin_path=sample))
    driver.save_screenshot(os.path.join(images, "html-malformed.png"))
    load(driver, page(binary, ["-r", "Corpus/captures/http.pcap"], "http", workdir))
    select_packet(driver, 3)
    click_field(driver, "tcp.flags.ack")
    driver.save_screenshot(os.path.join(images, "html-capture.png"))
    print("screenshots in docs/images/html-{dns,malformed,capture}.png")


def benchmark(driver, binary, workdir, sizes):
    print("\npackets  page size   load (s)  script init (ms)  select a packet (ms)  scroll to end (ms)")
    for count in sizes:
        capture = os.path.join(workdir, "mixed-%d.pcap" % count)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/generate-capture.py"), capture, str(count)], check=True,
                       stdout=subprocess.DEVNULL)
        path = page(binary, ["-r", capture], "mixed-%d" % count, workdir)
        size = os.path.getsize(path)
        driver.get("about:blank")
        seconds = load(driver, path)
        init = driver.execute_script("return window.dissect.loadMs")
        timing = driver.execute_script("""
            var t0 = performance.now(); window.dissect.select(Math.floor(window.dissect.count() / 2));
            document.body.offsetHeight; var t1 = performance.now();
            var list = document.getElementById('list'); list.scrollTop = list.scrollHeight;
            list.dispatchEvent(new Event('scroll')); document.body.offsetHeight;
            return [t1 - t0, performance.now() - t1, window.dissect.count()];""")
        check(timing[2] >= count, "the %d-packet page lists them all (and the reassembled units)" % count)
        print("%7d  %7.1f MB  %8.2f  %16.0f  %20.1f  %18.1f" % (count, size / 1e6, seconds, init, timing[0], timing[1]))
        os.remove(path)
        os.remove(capture)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dissect", default=os.path.join(ROOT, ".build/debug/dissect"))
    parser.add_argument("--screenshots", action="store_true")
    parser.add_argument("--sizes", default="1000,10000,100000", help="benchmark page sizes (empty: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        driver = browser()
        try:
            test_fields_and_bytes(driver, args.dissect, workdir)
            test_malformed(driver, args.dissect, workdir)
            test_reassembly(driver, args.dissect, workdir)
            errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            check(not errors, "no script errors in the console %s" % errors[:3])
            if args.screenshots:
                screenshots(driver, args.dissect, workdir)
            sizes = [int(s) for s in args.sizes.split(",") if s]
            if sizes:
                benchmark(driver, args.dissect, workdir, sizes)
        finally:
            driver.quit()
    if FAILURES:
        print("\n%d failed" % len(FAILURES))
        sys.exit(1)
    print("\nall passed")


if __name__ == "__main__":
    main()
