"""The readable scoreboard the CLI prints (the JSON output is the scored table itself)."""

from __future__ import annotations

from .city import City
from .notation import SHORT, format_city
from .rules import CATEGORIES

RANK_WORDS = {0: "no factories", 1: "most factories", 2: "second most", 3: "other"}


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def explain(category: str, why: dict) -> str:
    """One short line saying where a category's points came from."""
    if category == "shops":
        parts = [f"{s['points']} ({_cells(s['cells'])})" for s in why["sets"]]
    elif category == "factories":
        if not why["count"]:
            return "none"
        return f"{why['count']} x {why['per_tile']} ({RANK_WORDS[why['rank']]})"
    elif category == "taverns":
        parts = [f"{s['points']} ({'+'.join(k[7:] for k in s['kinds'])})" for s in why["sets"]]
    elif category == "offices":
        parts = [f"{s['points']} (set of {s['size']})" for s in why["sets"]]
        if why["next_to_tavern"]:
            parts.append(f"{len(why['next_to_tavern'])} next to a tavern")
    elif category == "parks":
        parts = [f"{g['points']} (group of {len(g['cells'])})" for g in why["groups"]]
    else:
        if not why["cells"]:
            return "none"
        parts = [f"{why['per_house']} each ({len(why['other_types'])} other types)"]
        if why["next_to_factory"]:
            parts.append(f"1 each next to a factory: {_cells(why['next_to_factory'])}")
    return " + ".join(parts) if parts else "none"


def explain_counts(category: str, why: dict) -> str:
    """One short line for a category of Automaville scored "maximally" from tile counts."""
    if category == "factories":
        return explain(category, why)
    if category == "taverns":
        return explain(category, why) + (" (best sets)" if why["sets"] else "")
    if not why["count"]:
        return "none"
    if category == "shops":
        sets = " + ".join(f"{s['points']} (set of {s['size']})" for s in why["sets"])
        return f"{why['count']} as if optimally placed: {sets}"
    if category == "offices":
        sets = " + ".join(f"{s['points']} (set of {s['size']})" for s in why["sets"])
        bonus = why["tavern_bonus"]
        return sets + (f" + {bonus} (every office: Automaville has a tavern)" if bonus
                       else " (no tavern: no bonus)")
    if category == "parks":
        parts = [f"{g['points']} ({'pair' if g['size'] == 2 else 'single'})"
                 for g in why["groups"]]
        return f"{why['count']} as separate pairs: " + " + ".join(parts)
    return (f"{why['count']} x {why['per_house']} ({len(why['other_types'])} other types; "
            "none next to a factory)")


def format_counts(counts: dict) -> str:
    """Automaville's tile counts in short notation: 'S 6  F 2  Td 1'."""
    return "  ".join(f"{SHORT[b]} {n}" for b, n in counts.items() if n) or "no buildings"


def format_city_block(index: int, city: dict, label: str = "") -> list[str]:
    """A city's grid (or Automaville's tile counts) and its six categories."""
    title = f"City {index + 1}" + (f" ({label})" if label else "")
    counts = city.get("mode") == "counts"
    if counts:
        lines = [title, f"  tiles sorted by type (scored maximally): {format_counts(city['counts'])}"]
    else:
        grid = format_city(City.from_rows(city["grid"]))
        lines = [title, *("  " + r for r in grid.splitlines())]
    for category in CATEGORIES:
        why = (explain_counts if counts else explain)(category, city["explanation"][category])
        lines.append(f"  {category:<10}{city['scores'][category]:>4}  {why}")
    difficulty = city.get("difficulty")
    if difficulty:
        lines.append(f"  {'difficulty':<10}{difficulty['modifier']:>+4}  level "
                     f"{difficulty['level']} (Automaville -6..+6)")
        lines.append(f"  {'total':<10}{difficulty['total']:>4}  {difficulty['line']}")
    else:
        lines.append(f"  {'total':<10}{city['scores']['total'] + city.get('modifier', 0):>4}")
    if city.get("small_tiles"):
        lines.append(f"  check: every cell (the tiles are only {city['tile_px']:.0f} px wide in "
                     "the photo: take it closer to be sure)")
    elif city.get("uncertain"):
        doubtful = [f"{_cells([cell])} ({city['confidence'][cell[0]][cell[1]]:.0%} sure)"
                    for cell in city["uncertain"]]
        lines.append(f"  check: {', '.join(doubtful)} (read with low confidence)")
        if city.get("hardly_sure"):
            lines.append("  hardly a cell reads surely: retake the photo in even light, "
                         "without glare, or teach the reader your tiles")
    return lines


def format_scoreboard(result: dict) -> str:
    """The whole table: every city, then players, tiebreaks and the winner."""
    lines = []
    for i, city in enumerate(result["cities"]):
        label = city.get("photo", "")
        if city.get("builders"):
            label = " & ".join(city["builders"])
        if city.get("name"):
            label = f"{city['name']}: {label}" if label else city["name"]
        lines += [*format_city_block(i, city, label), ""]
    if "players" in result:
        lines.append(f"Players ({result['variant']}):")
        for p in result["players"]:
            where = f"city {p['final_city']}" if p["final_city"] else "sum of both cities"
            lines.append(f"  {p['rank']}. {p['name']:<14}{p['final']:>4}  ({where})")
        lines += [f"  tie: {reason}" for reason in result["tiebreaks"]]
        lines.append("Winner: " + " and ".join(result["winner"]))
    return "\n".join(lines).rstrip() + "\n"
