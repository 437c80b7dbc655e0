#!/usr/bin/env python3
# tests/html/detail_dom.py — reads a DOM that headless Chromium dumped from a page of `warpsim run --html`
# and prints what the page's line detail panel (#line-detail) drew, one fact per line, for
# interactive_page.sh to compare with values worked out by hand:
#
#   row ROW                          the model row the panel shows (data-row), or "row none"
#   selected LINE                    the data-line of the table row marked selected
#   heading TEXT                     the panel's <h3>, then each <h4>
#   caption KIND TEXT                each caption paragraph, with its data-kind
#   sectors SVG_ID L:S L:S ...       lane -> sector lines of a global diagram, in lane order
#   banks SVG_ID L:B L:B ...         lane -> bank lines of a shared diagram
#   bankcount SVG_ID C0 C1 ... C31   the number drawn in each bank's box
#   branch SVG_ID SIDE L L ...       the lanes drawn as on, per side (taken, not-taken)
#   header KEY VALUE                 each fact of #launch-header (registers, occupancy, ...)
#   cell LINE COLUMN TEXT            each shaded cell of #source-lines (columns by header text)
#
# Usage: detail_dom.py DOM_FILE
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, attrs) of open elements
        self.facts = []
        self.panel_row = None
        self.selected = None
        self.text_into = None  # [kind, list of text parts] while inside a heading or caption of the panel
        self.lines = {}  # svg id -> list of (lane, kind, value)
        self.bank_count = {}
        self.branch = {}
        self.header_key = None
        self.header = []
        self.columns = []
        self.in_th = False
        self.row_line = None
        self.cell_index = 0
        self.cell_text = None

    def inside(self, element_id):
        return any(a.get("id") == element_id for _, a in self.stack)

    def svg_id(self):
        for tag, a in reversed(self.stack):
            if tag == "svg":
                return a.get("id", "")
        return ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        void = tag in ("br", "meta", "input", "img", "link", "hr", "wbr")
        if a.get("id") == "line-detail":
            self.panel_row = a.get("data-row")
        if tag == "tr" and "sel" in a.get("class", "").split():
            self.selected = a.get("data-line")
        in_panel = self.inside("line-detail") or a.get("id") == "line-detail"
        if in_panel and tag in ("h3", "h4"):
            self.text_into = ["heading", []]
        if in_panel and tag == "p":
            self.text_into = ["caption " + a.get("data-kind", "-"), []]
        if in_panel and tag == "line" and "data-lane" in a:
            value = a.get("data-sector", a.get("data-bank"))
            self.lines.setdefault(self.svg_id(), []).append(
                (int(a["data-lane"]), "sector" if "data-sector" in a else "bank", int(value)))
        if in_panel and tag == "rect" and "data-count" in a:
            self.bank_count.setdefault(self.svg_id(), {})[int(a["data-bank"])] = a["data-count"]
        if in_panel and tag == "rect" and "data-side" in a and a.get("data-on") == "1":
            self.branch.setdefault((self.svg_id(), a["data-side"]), []).append(int(a["data-lane"]))
        if self.inside("launch-header") and tag == "dt":
            self.header_key = ""
        if self.inside("launch-header") and tag == "dd" and "value" in a.get("class", ""):
            self.cell_text = []
        if self.inside("source-lines"):
            if tag == "tr":
                self.row_line = a.get("data-line")
                self.cell_index = 0
            if tag == "th":
                self.in_th = True
                self.cell_text = []
            if tag == "td":
                self.cell_index += 1
                if "num" in a.get("class", "") and self.row_line is not None:
                    self.cell_text = []
        if not void:
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        if tag in ("h3", "h4", "p") and self.text_into:
            kind, parts = self.text_into
            self.facts.append(f"{kind} {' '.join(''.join(parts).split())}")
            self.text_into = None
        if tag == "dd" and self.cell_text is not None and self.inside("launch-header"):
            self.header.append(f"header {self.header_key} {' '.join(''.join(self.cell_text).split())}")
            self.cell_text = None
        if tag == "th" and self.in_th:
            self.columns.append(" ".join("".join(self.cell_text).split()))
            self.in_th = False
            self.cell_text = None
        if tag == "td" and self.cell_text is not None and self.inside("source-lines"):
            column = self.columns[self.cell_index - 1] if self.cell_index - 1 < len(self.columns) else "?"
            self.facts.append(f"cell {self.row_line} {column} {' '.join(''.join(self.cell_text).split())}")
            self.cell_text = None
        # An end tag with no open element of its name (a stray one) closes nothing.
        if any(open_tag == tag for open_tag, _ in self.stack):
            while self.stack:
                open_tag, _ = self.stack.pop()
                if open_tag == tag:
                    break

    def handle_data(self, data):
        if self.text_into:
            self.text_into[1].append(data)
        if self.header_key is not None and self.stack and self.stack[-1][0] == "dt":
            self.header_key += data.strip().replace(" ", "_")
        if self.cell_text is not None:
            self.cell_text.append(data)


def main():
    dom = Dom()
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        dom.feed(f.read())
    print(f"row {dom.panel_row if dom.panel_row is not None else 'none'}")
    print(f"selected {dom.selected if dom.selected is not None else 'none'}")
    for fact in dom.header:
        print(fact)
    for fact in dom.facts:
        print(fact)
    for svg, lines in dom.lines.items():
        kind = lines[0][1]
        pairs = " ".join(f"{lane}:{value}" for lane, _, value in sorted(lines))
        print(f"{'sectors' if kind == 'sector' else 'banks'} {svg} {pairs}")
    for svg, counts in dom.bank_count.items():
        print(f"bankcount {svg} {' '.join(counts[b] for b in sorted(counts))}")
    for (svg, side), lanes in dom.branch.items():
        print(f"branch {svg} {side} {' '.join(str(l) for l in sorted(lanes))}")


if __name__ == "__main__":
    main()
