"""Loads a page in headless Chromium and runs steps on it, for tests written in any language.

usage: page_probe.py URL RESULT_JSON [--size WxH] [--scale S] STEP...

Steps run in order after the page has loaded:
  wait:EXPR           until the JavaScript expression is truthy (60 s, else exit 1)
  eval:EXPR           its value goes into the result's "values", in order
  requests:           the URLs the page has requested so far (DevTools' Network domain) go into "values"
  screenshot:FILE     a PNG of the viewport
  write:FILE=TEXT     writes TEXT to FILE (to change what the page reads next)

The result is JSON: {"values": [...]}. A failed step exits 1 naming it.
"""

import argparse
import json
import sys

from chromium_pipe import BrowserError, Chromium


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("result")
    parser.add_argument("--size", default="1280x900")
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("steps", nargs="*")
    arguments = parser.parse_args()
    width, height = (int(value) for value in arguments.size.split("x"))
    values = []
    try:
        with Chromium(width=width, height=height, scale=arguments.scale) as browser:
            browser.page("Network.enable")
            browser.navigate(arguments.url)
            for step in arguments.steps:
                kind, _, argument = step.partition(":")
                if kind == "wait":
                    browser.wait_for(argument)
                elif kind == "eval":
                    values.append(browser.evaluate(argument))
                elif kind == "requests":
                    values.append([event["params"]["request"]["url"] for event in browser.events
                                   if event.get("method") == "Network.requestWillBeSent"])
                elif kind == "screenshot":
                    browser.screenshot(argument)
                elif kind == "write":
                    path, _, text = argument.partition("=")
                    with open(path, "w", encoding="utf-8") as handle:
                        handle.write(text)
                else:
                    sys.exit(f"page_probe: unknown step {step!r}")
    except BrowserError as error:
        sys.exit(f"page_probe: {error}")
    with open(arguments.result, "w", encoding="utf-8") as handle:
        json.dump({"values": values}, handle)


if __name__ == "__main__":
    main()
