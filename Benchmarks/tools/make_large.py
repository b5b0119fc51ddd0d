#!/usr/bin/env python3
"""Write reports of about a million frames (or threads, images, lines), each over 16 MiB.

    make_large.py OUT_DIR

From two of our fixtures it writes the shapes a report too large to keep whole can take:

- json-deep-compact.ips, json-deep-indented.ips: the crashed thread a million frames deeper, every
  frame a distinct symbol; the body without and with indentation (Apple writes the body indented,
  a thread's frames on one line).
- json-wide.ips: a thousand threads of a thousand frames each.
- json-deep-wide.ips: json-deep's crashed thread and a thousand threads of a hundred frames: cut
  past its outline, so the crashed thread is read again alone.
- json-threads.ips: a million threads of one frame each.
- json-images.ips: a million binary images.
- text-deep.crash: a legacy text report whose crashed thread is a million frames deep.
- text-threads.crash: a text report with a million threads.
- text-wide.crash: a text report with a thousand threads of a thousand frames each.
- json-wide-17mb.ips: json-wide's shape just past the 16 MiB a report is read whole up to, where
  the program's own 10 MB weigh most.
- text-lines.crash: a text report with eight million lines of Application Specific Information.

peak-memory.sh runs the CLI on each and compares its peak memory with the file's size.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "Fixtures", "reports")
JSON_SOURCE = "async-bridge-didreceive-simplified-symbols.ips"
TEXT_SOURCE = "legacy-ios-triggered-by-thread-dispatch-queue.crash"
MILLION = 1_000_000


def frame(i):
    return {"imageOffset": 1_000_000 + i, "symbol": "function_number_%07d_in_module" % i,
            "symbolLocation": i % 1000, "imageIndex": 0}


def write_json(out, name, header, body, indent=False):
    text = json.dumps(body, indent=2, separators=(",", " : ")) if indent else json.dumps(body, separators=(",", ":"))
    with open(os.path.join(out, name), "w") as f:
        f.write(header + "\n" + text + "\n")


def json_reports(out):
    with open(os.path.join(FIXTURES, JSON_SOURCE)) as f:
        source = f.read()
    newline = source.index("\n")
    header, body = source[:newline], json.loads(source[newline + 1:])
    crashed = body["faultingThread"]

    deep = json.loads(json.dumps(body))
    deep["threads"][crashed]["frames"] += [frame(i) for i in range(MILLION)]
    write_json(out, "json-deep-compact.ips", header, deep)
    write_json(out, "json-deep-indented.ips", header, deep, indent=True)

    deep_wide = json.loads(json.dumps(deep))
    deep_wide["threads"] += [{"id": 10_000_000 + t, "frames": [frame(t * 100 + i) for i in range(100)]}
                             for t in range(1000)]
    write_json(out, "json-deep-wide.ips", header, deep_wide)

    wide = json.loads(json.dumps(body))
    wide["threads"] += [{"id": 10_000_000 + t, "frames": [frame(t * 1000 + i) for i in range(1000)]}
                        for t in range(1000)]
    write_json(out, "json-wide.ips", header, wide)
    wide["threads"] = wide["threads"][:len(body["threads"]) + 170]
    write_json(out, "json-wide-17mb.ips", header, wide)

    threads = json.loads(json.dumps(body))
    threads["threads"] += [{"id": 10_000_000 + t, "frames": [frame(t)]} for t in range(MILLION)]
    write_json(out, "json-threads.ips", header, threads)

    images = json.loads(json.dumps(body))
    image = images["usedImages"][0]
    images["usedImages"] += [dict(image, name="lib%d" % i, base=10**10 + i * 4096) for i in range(MILLION)]
    write_json(out, "json-images.ips", header, images)


def text_reports(out):
    with open(os.path.join(FIXTURES, TEXT_SOURCE)) as f:
        source = f.read()
    crashed = source.index("Thread 3 Crashed:")
    end = source.index("\n\nThread 4:", crashed)

    def write(name, text):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)

    frames = "".join("\n%d  Acme                          \t       0x%x function_number_%07d + 12"
                     % (14 + i, 0x100e48150 + i, i) for i in range(MILLION))
    write("text-deep.crash", source[:end] + frames + source[end:])

    second = source.index("Thread 3 name:")
    threads = "".join("Thread %d:\n0   libsystem_pthread.dylib       \t       0x2264e9ba0 start_wqthread + 0\n\n"
                      % (100 + t) for t in range(MILLION))
    write("text-threads.crash", source[:second] + threads + source[second:])

    block = "\n".join("%d   libsystem_kernel.dylib        \t       0x1e8d%05x mach_msg + 8" % (k, k) for k in range(1000))
    wide = "".join("Thread %d:\n%s\n\n" % (100 + t, block) for t in range(1000))
    write("text-wide.crash", source[:second] + wide + source[second:])

    info = source.index("Application Specific Information:")
    line_end = source.index("\n", info)
    lines = "".join("\nline %d" % i for i in range(8 * MILLION))
    write("text-lines.crash", source[:line_end] + lines + source[line_end:])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    json_reports(out)
    text_reports(out)


if __name__ == "__main__":
    main()
