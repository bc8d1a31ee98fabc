"""bench/RESULTS.md as named sections, so that each benchmark script (bench.py, watch.py, …) can
run alone and replace only its own section; a section not there yet goes at the end."""

import re
import sys


def write_section(path, name, markdown):
    """Replaces section `name` of the markdown file at `path` with `markdown`, or appends it."""
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{begin}\n{markdown.strip()}\n{end}\n"
    text = path.read_text() if path.exists() else ""
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end) + r"\n?", re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + block
    path.write_text(text)


def publish(path, name, markdown):
    """Prints section `name`, writes it into the markdown file at `path`, and says so on stderr."""
    print(markdown)
    write_section(path, name, markdown)
    print(f"bench: wrote the {name} section of {path}", file=sys.stderr, flush=True)
