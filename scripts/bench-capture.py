#!/usr/bin/env python3
"""The capture benchmark: dissect's views side by side with libpcap, tcpdump and tshark.

    scripts/bench-capture.py [--frames N] [--capture FILE] [--only NAME,...]

Generates (once) a capture of N mixed frames with scripts/generate-capture.py, then runs
each reader over the whole file in turn, output to /dev/null, and reports packets per
second, CPU seconds (all threads) and peak resident memory (the child's ru_maxrss), and the
ratios the targets are stated in. dissect's views run twice: on every core (the default) and
with --threads 1, as the peers run. Run-to-run noise on a small VM is 10-15%, so a reader done in
under 10 seconds (all of dissect's, and the floor) is timed three times (--repeat) and the median
kept; the floor, 0.1 s of mostly process start and page cache, keeps its fastest run, which only
makes the floor harder to approach. Slower readers (tshark, tcpdump) run once. Expects a release
build (make bench-capture builds it). Peers that are not installed are skipped with a note.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, ".build", "release")


def readers(capture):
    dissect = os.path.join(RELEASE, "dissect")
    return [
        ("pcap_next_ex loop (floor)", [os.path.join(RELEASE, "dissect-bench"), "pcap-floor", capture]),
        ("tcpdump -nn -v", ["tcpdump", "-nn", "-v", "-r", capture]),
        ("tcpdump -nn -X", ["tcpdump", "-nn", "-X", "-r", capture]),
        ("tshark -n -V", ["tshark", "-n", "-V", "-r", capture]),
        ("tshark -n -T json", ["tshark", "-n", "-T", "json", "-r", capture]),
        ("dissect -q (no output)", [dissect, "-r", capture, "-q"]),
        ("dissect -f summary", [dissect, "-r", capture, "-f", "summary"]),
        ("dissect -f tree", [dissect, "-r", capture, "-f", "tree"]),
        ("dissect -f json", [dissect, "-r", capture, "-f", "json"]),
        ("dissect -f hex", [dissect, "-r", capture, "-f", "hex"]),
        ("dissect -f fields", [dissect, "-r", capture, "-f", "fields"]),
    ] + [
        # The same on one thread, as the peers run: what each view costs a core.
        (f"dissect {flags} --threads 1", [dissect, "-r", capture, *flags.split(), "--threads", "1"])
        for flags in ["-q", "-f summary", "-f tree", "-f json", "-f hex"]
    ]


# (ours, peer, target ratio of our packets/s to the peer's)
TARGETS = [
    ("dissect -q (no output)", "pcap_next_ex loop (floor)", 0.25),
    ("dissect -f tree", "tshark -n -V", 10),
    ("dissect -f json", "tshark -n -T json", 30),
    ("dissect -f hex", "tcpdump -nn -X", 5),
    ("dissect -f summary", "tcpdump -nn -v", 1),
]


def measure(command):
    """Seconds of wall time, seconds of CPU (user + system, all threads) and peak RSS in MB of
    one run, output discarded."""
    with open(os.devnull, "wb") as devnull:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=devnull, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0,):
        print(f"  warning: {' '.join(command)} exited with status {os.waitstatus_to_exitcode(status)}", file=sys.stderr)
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--capture", help="capture to use (default: .build/bench/mixed-N.pcap, generated if missing)")
    parser.add_argument("--only", help="comma-separated reader names (prefixes) to run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each reader under 10 s (default 3)")
    arguments = parser.parse_args()

    capture = arguments.capture or os.path.join(ROOT, ".build", "bench", f"mixed-{arguments.frames}.pcap")
    if not os.path.exists(capture):
        os.makedirs(os.path.dirname(capture), exist_ok=True)
        print(f"generating {capture} ({arguments.frames} frames)", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "generate-capture.py"), capture,
                        str(arguments.frames)], check=True)
    frames = arguments.frames
    print(f"{frames} frames, {os.path.getsize(capture) / 1e6:.0f} MB: {capture}")
    print(f"{'reader':<34} {'seconds':>8} {'CPU s':>7} {'packets/s':>11} {'peak RSS':>9}  runs")
    results = {}
    for name, command in readers(capture):
        if arguments.only and not any(name.startswith(prefix) for prefix in arguments.only.split(",")):
            continue
        if shutil.which(command[0]) is None and not os.path.exists(command[0]):
            print(f"{name:<34} skipped: {command[0]} not installed")
            continue
        runs = [measure(command)]
        while runs[0][0] < 10 and len(runs) < max(1, arguments.repeat):
            runs.append(measure(command))
        rss = max(run[2] for run in runs)
        runs.sort()
        # The floor keeps its fastest run; every other reader its median.
        seconds, cpu, _ = runs[0] if name.endswith("(floor)") else runs[len(runs) // 2]
        results[name] = (seconds, rss)
        spread = f"  {len(runs)}: {runs[0][0]:.2f}-{runs[-1][0]:.2f} s" if len(runs) > 1 else ""
        print(f"{name:<34} {seconds:8.2f} {cpu:7.2f} {frames / seconds:11,.0f} {rss:7.0f} MB{spread}", flush=True)

    print()
    print(f"{'target':<60} {'ratio':>8} {'target':>8}")
    for ours, peer, target in TARGETS:
        for variant in [ours, ours + " --threads 1"]:
            if variant in results and peer in results:
                ratio = results[peer][0] / results[variant][0]
                verdict = "met" if ratio >= target else "missed"
                print(f"{variant + ' vs ' + peer:<60} {ratio:7.2f}x {target:7.2f}x  {verdict}")
    ours_rss = [rss for name, (_, rss) in results.items() if name.startswith("dissect")]
    if ours_rss:
        print(f"{'dissect peak RSS, largest of all views':<60} {max(ours_rss):6.0f} MB  < 64 MB  "
              f"{'met' if max(ours_rss) < 64 else 'missed'}")


if __name__ == "__main__":
    main()
