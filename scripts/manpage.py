#!/usr/bin/env python3
"""Writes actshare(1) in roff from the argument parser's own description of the CLI.

Usage: scripts/manpage.py VERSION ACTSHARE > actshare.1     (Sources/actshare/meson.build)
       actshare --experimental-dump-help | scripts/manpage.py VERSION > actshare.1

Every subcommand, argument, option and help text comes from swift-argument-parser's
dump (ToolInfo JSON), so the page says what `actshare --help` says.
"""
import datetime
import json
import subprocess
import sys


def roff(text):
    """Text safe for roff: backslashes doubled, a leading dot or quote escaped."""
    lines = []
    for line in (text or "").replace("\\", "\\e").split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line.replace("-", "\\-"))
    return "\n".join(lines)


def names(argument):
    spelled = []
    for name in argument.get("names", []):
        spelled.append(("-" if name["kind"] == "short" else "--") + name["name"])
    return ", ".join(f"\\fB{roff(n)}\\fR" for n in spelled)


def describe(command, path, out):
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    if path:
        out.append(f'.SH "{roff(" ".join(path)).upper()}"')
        if command.get("abstract"):
            out.append(roff(command["abstract"]))
        if command.get("discussion"):
            out.append(".PP")
            out.append(roff(command["discussion"]))
    for argument in arguments:
        out.append(".TP")
        if argument["kind"] == "positional":
            out.append(f"\\fI{roff(argument.get('valueName', 'value'))}\\fR" + ("..." if argument.get("isRepeating") else ""))
        elif argument["kind"] == "option":
            out.append(f"{names(argument)} \\fI{roff(argument.get('valueName', 'value'))}\\fR")
        else:
            out.append(names(argument))
        out.append(roff(argument.get("abstract", "")))
        if argument.get("discussion"):
            out.append(roff(argument["discussion"]) if isinstance(argument["discussion"], str) else "")
        if argument.get("defaultValue"):
            out.append(f"(default: {roff(argument['defaultValue'])})")
    for sub in command.get("subcommands", []):
        describe(sub, path + [sub["commandName"]], out)


if len(sys.argv) > 2:
    dump = subprocess.run([sys.argv[2], "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout
else:
    dump = sys.stdin.read()
tool = json.loads(dump)["command"]
version = sys.argv[1] if len(sys.argv) > 1 else ""
out = [
    f'.TH ACTSHARE 1 "{datetime.date.today().isoformat()}" "actshare {roff(version)}" "User Commands"',
    ".SH NAME",
    f"actshare \\- {roff(tool.get('abstract', ''))}",
    ".SH SYNOPSIS",
    "\\fBactshare\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR] [\\fIitem\\fR...]",
    ".SH DESCRIPTION",
    roff(tool.get("discussion", "")),
    ".SH OPTIONS",
]
describe(tool, [], out)
out += [
    ".SH FILES",
    "$XDG_CONFIG_HOME/actshare/config.yaml, $XDG_DATA_HOME/actshare/providers, $XDG_STATE_HOME/actshare, $XDG_CACHE_HOME/actshare",
    ".SH SEE ALSO",
    "The manifest schema and the C interface for providers: the actshare/provider.h header and docs/PLUGINS.md.",
]
print("\n".join(out))
