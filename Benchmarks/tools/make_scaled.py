#!/usr/bin/env python3
"""Write one crash report at several sizes: every list in it grown k times over.

    make_scaled.py OUT_DIR [--factors 1,10,100,1000,3000]

From two of our fixtures (a JSON .ips and a legacy text .crash) it writes json-xK.ips and
text-xK.crash for each factor K. In the JSON report the crashed thread's frames, the other threads,
the images and the Application Specific Information lines are each K times as many; in the text
report the crashed thread's frames, the other threads and the binary images. Everything grows
linearly with K (no list is multiplied by another), so a reader and a diagnosis that are linear in
the report's size take K times as long. Images get distinct names, addresses and UUIDs, threads
distinct numbers, frames their positions, so nothing is a duplicate a reader could fold. The last
exception backtrace is left as it is: repeated, it is no longer one throw site, and the diagnosis
rightly changes; every size gets the same diagnosis as the fixture.
"""
import argparse
import copy
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "Fixtures", "reports")
JSON_SOURCE = "async-bridge-didreceive-simplified-symbols.ips"
TEXT_SOURCE = "legacy-ios-triggered-by-thread-dispatch-queue.crash"


def scaled_json(text, k):
    newline = text.index("\n")
    header, body = text[:newline], json.loads(text[newline + 1:])
    crashed = body["faultingThread"]
    threads = body["threads"]
    threads[crashed]["frames"] = threads[crashed]["frames"] * k
    others = [t for i, t in enumerate(threads) if i != crashed]
    for copy_number in range(1, k):
        for thread in others:
            extra = copy.deepcopy(thread)
            extra["id"] = thread.get("id", 0) + copy_number * 100000
            threads.append(extra)
    images = body["usedImages"]
    originals = list(images)
    for copy_number in range(1, k):
        for index, image in enumerate(originals):
            extra = dict(image)
            extra["base"] = 0x300000000 + (copy_number * len(originals) + index) * 0x100000
            extra["uuid"] = "%08x-0000-4000-8000-%012x" % (copy_number, index)
            extra["name"] = "Scaled%d_%d" % (copy_number, index)
            extra["path"] = "/usr/lib/scaled/Scaled%d_%d.dylib" % (copy_number, index)
            images.append(extra)
    asi = body.get("asi", {})
    for owner, lines in asi.items():
        asi[owner] = [f"{line} ({n})" if n else line for n in range(k) for line in lines]
    return header + "\n" + json.dumps(body, indent=2) + "\n"


THREAD = re.compile(r"^Thread (\d+)( name:| Crashed:|:)")
FRAME = re.compile(r"^(\d+)(\s+.*)$")
IMAGE = re.compile(r"^(\s*)0x([0-9a-f]+) -\s+0x([0-9a-f]+) (\S+)(.*)$")


def scaled_text(text, k):
    lines = text.split("\n")
    # Thread blocks: from a "Thread N…" line to the blank line after its frames.
    blocks, i = [], 0
    while i < len(lines):
        if THREAD.match(lines[i]):
            start = i
            while i < len(lines) and lines[i].strip():
                i += 1
            blocks.append(range(start, i))
        else:
            i += 1
    crashed = next(b for b in blocks if any("Crashed:" in lines[j] for j in b))
    frames = [FRAME.match(lines[j]).group(2).lstrip() for j in crashed if FRAME.match(lines[j])]
    extra_frames = [f"{n:<3} {frames[n % len(frames)]}" for n in range(len(frames), k * len(frames))]

    extra_threads, number = [], max(int(THREAD.match(lines[b.start]).group(1)) for b in blocks)
    for _ in range(1, k):
        for block in blocks:
            if block == crashed:
                continue
            number += 1
            extra_threads.append("")
            for line in (lines[j] for j in block):
                m = THREAD.match(line)
                extra_threads.append(f"Thread {number}{m.group(2)}{line[m.end():]}" if m else line)

    images_at = next(n for n, line in enumerate(lines) if line.startswith("Binary Images:"))
    images = [line for line in lines[images_at + 1:] if IMAGE.match(line)]
    extra_images = []
    for copy_number in range(1, k):
        for index, image in enumerate(images):
            base = 0x300000000 + (copy_number * len(images) + index) * 0x100000
            name = "Scaled%d_%d" % (copy_number, index)
            extra_images.append(
                f"{IMAGE.match(image).group(1)}0x{base:x} - {' ' * 4}0x{base + 0xfffff:x} {name} arm64  "
                f"<{copy_number:08x}0000400080000000{index:08x}> /usr/lib/scaled/{name}.dylib"
            )

    # The crashed thread's last frame line is its block's last line; the other threads go after the
    # last block; the images replace whatever followed the header (the report ends with them).
    return "\n".join(
        lines[: crashed.stop] + extra_frames + lines[crashed.stop : blocks[-1].stop] + extra_threads
        + lines[blocks[-1].stop : images_at + 1] + images + extra_images + [""]
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--factors", default="1,10,100,1000,3000")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    json_text = open(os.path.join(FIXTURES, JSON_SOURCE)).read()
    text_text = open(os.path.join(FIXTURES, TEXT_SOURCE)).read()
    for k in (int(f) for f in args.factors.split(",")):
        for name, content in ((f"json-x{k}.ips", scaled_json(json_text, k)), (f"text-x{k}.crash", scaled_text(text_text, k))):
            path = os.path.join(args.out, name)
            with open(path, "w") as f:
                f.write(content)
            print(f"{path}\t{os.path.getsize(path)}")


if __name__ == "__main__":
    main()
