"""The Markdown table of :mod:`bench_stall`'s result: one row per action, one column per size."""

from __future__ import annotations


def _cell(row: dict) -> str:
    text = f"{row['gap_ms']:,.0f} ({row['excess_ms']:+,.0f})"
    notes = [f"wall {row['wall_s']:,.2f} s"]
    p = row["progress_after_s"]
    notes.append("no progress" if p is None else f"progress at {p:.2f} s")
    if row["cancelled"]:
        c = row["cancel_to_control_s"]
        notes.append(f"Cancel at {row['cancel_pressed_at_s']:.1f} s, control back "
                     + ("never" if c is None else f"{c:.2f} s later"))
    if row["over_cap"] and not row["cancelled"]:
        notes.append("over the cap")
    if not row["ok"]:
        notes.append(f"NOT OK{': ' + row['error'] if row['error'] else ''}")
    return f"{text}; {', '.join(notes)}"


def format_table(r: dict, goals: dict) -> str:
    """A Markdown table: one row per action, one column per size; ``goals``: the goal
    of gap − idle in ms by size (50 ms where none is given)."""
    sizes = r["sizes"]
    ns = list(dict.fromkeys(s["n"] for s in sizes))  # one column per size, every kind of data
    names = list(dict.fromkeys(row["action"] for s in sizes for row in s["rows"]))
    head = "| action | " + " | ".join(f"{n:,} points" for n in ns) + " |"
    lines = [
        "Longest gap of a 5 ms QTimer during each action, ms (gap − idle baseline); "
        f"{r['platform']} platform.",
        "Idle baseline (window with the points): "
        + ", ".join(f"{s['idle_ms']:.1f} ms at {s['n']:,} ({s.get('data', 'separable')})"
                    for s in sizes)
        + "; empty window: " + ", ".join(f"{s['idle_empty_ms']:.1f} ms" for s in sizes) + ".",
        "Goals: gap − idle ≤ "
        + ", ".join(f"{goals.get(n, 50.0):.0f} ms at {n:,}" for n in ns)
        + "; progress shown by any action longer than 0.5 s.",
        "",
        head,
        "|---|" + "---|" * len(ns),
    ]
    for name in names:
        cells = []
        for n in ns:
            row = next((x for s in sizes if s["n"] == n for x in s["rows"]
                        if x["action"] == name), None)
            cells.append("—" if row is None else _cell(row))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    met = sum(x["excess_ms"] <= x["goal_ms"] for s in sizes for x in s["rows"])
    total = sum(len(s["rows"]) for s in sizes)
    lines += [
        "",
        f"Goal met by {met} of {total} rows.  {r['seconds']:.0f} s in all.",
        f"Load before: {r['uptime_before'] or r['load_before']}",
        f"Load after:  {r['uptime_after'] or r['load_after']}",
    ]
    if r["dialogs_answered"]:
        lines.append("Dialogs answered: " + "; ".join(r["dialogs_answered"]))
    return "\n".join(lines)
