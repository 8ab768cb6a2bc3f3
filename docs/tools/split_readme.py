"""One-off: cut the README's sections into the site's pages (run once, then the pages are edited by hand).

Kept for the record of where each page's text came from; the build does not run it.
"""
import re
import sys
from pathlib import Path

README = Path(sys.argv[1]).read_text().split("\n")
OUT = Path(sys.argv[2])


def section(first: str, last: str | None) -> list[str]:
    """Lines from the heading ``first`` up to (not including) the heading ``last``."""
    start = README.index(first)
    end = README.index(last) if last else len(README)
    return README[start:end]


CITE = [
    (r"\(seed 001\)", "(the mistake-bound lecture notes)"),
    (r"seeds 001 to 004 are the lecture notes the project was written from",
     "the lecture notes are listed under [Sources](theory.md#sources)"),
    (r"seed 000", "the textbook chapter"),
    (r"seed 001", "the mistake-bound lecture notes"),
    (r"seed 002", "the lecture on online linear classification"),
    (r"seed 003", "the lecture on Perceptron and Winnow"),
    (r"seed 004", "the lecture on regret and online convex optimisation"),
]
LINKS = {
    "#claims-and-verdicts-one-lookup-one-judge": "claims.md",
    "#long-searches-budgets-memory-and-several-cores": "long_searches.md",
    "#names-settings-and-files": "formats.md#names-settings-and-files",
    "#other-settings-of-the-game-many-labels-bandit-feedback-a-noise-budget": "settings.md",
}


def clean(lines: list[str], shift: bool = True) -> str:
    out, fenced = [], False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            # MyST does not take a title after the language; keep it as a caption line
            m = re.match(r'```(\w+) title="([^"]+)"', line)
            if m:
                out.append(f"`{m.group(2)}`:\n")
                line = f"```{m.group(1)}"
        elif not fenced:
            if shift and line.startswith("#"):
                line = line[1:] if line.startswith("##") else line
            for pattern, text in CITE:
                line = re.sub(pattern, text, line)
            for anchor, target in LINKS.items():
                line = line.replace(f"]({anchor})", f"]({target})")
        out.append(line)
    return "\n".join(out).rstrip() + "\n"


PAGES = {
    "claims.md": [("## Claims and verdicts: one lookup, one judge", "## Exact worst cases")],
    "settings.md": [("## Other settings of the game: many labels, bandit feedback, a noise budget",
                     "## A class's whole profile: `mistakebound dims`")],
    "orders.md": [("## Who orders the instances: self-directed, best and worst orders, transductive",
                   "## Certificates")],
    "beyond_finite.md": [("## Beyond finite classes", "### Findings: where a stated bound fails")],
    "command_line.md": [("## Playing, searching and drawing from the command line",
                         "## Long searches: budgets, memory and several cores")],
    "long_searches.md": [("## Long searches: budgets, memory and several cores", "## Sweeps: grids of games and searches")],
    "sweeps.md": [("## Sweeps: grids of games and searches", "## Notebooks and pandas")],
    "notebooks.md": [("## Notebooks and pandas", "## Conventions")],
    "guarantees.md": [("## Conventions", "## Names, settings and files")],
    "benchmarks.md": [("## Performance", None)],
    "_readme_researcher.md": [("## A short tour", "## Claims and verdicts: one lookup, one judge"),
                              ("## Exact worst cases", "## Other settings of the game: many labels, bandit feedback, a noise budget"),
                              ("## A class's whole profile: `mistakebound dims`",
                               "## Who orders the instances: self-directed, best and worst orders, transductive"),
                              ("## Certificates", "## Write your own learner")],
    "_readme_learner.md": [("## Write your own learner", "## Beyond finite classes")],
    "_readme_theory.md": [("## Learners and their claims", "## Dependencies"),
                          ("### Findings: where a stated bound fails", "## Playing, searching and drawing from the command line")],
    "_readme_formats.md": [("## Names, settings and files", "## Learners and their claims")],
    "_readme_deps.md": [("## Dependencies", "## Performance")],
}
for page, parts in PAGES.items():
    text = "\n".join(clean(section(a, b)) for a, b in parts)
    (OUT / page).write_text(text)
    print(page, text.count("\n"))
