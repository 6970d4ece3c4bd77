#!/usr/bin/python3
"""Reads and drives actshare-sheet's window through AT-SPI, as a screen reader (Orca) does.

  atspi.py tree              every showing node of the window: ROLE|NAME|STATES, depth-first
  atspi.py focused           the focused node: ROLE|NAME
  atspi.py press NAME        does the first action ("click", "activate") of the node named NAME
  atspi.py text NAME         the text of the editable node named NAME (an entry's contents)

Every wait is bounded (20 s for the window to appear); exit status 1 if what was asked
for is not there.
"""
import sys
import time

import pyatspi

APPLICATION = "actshare-sheet"
WAIT_SECONDS = 20


def window():
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            application = desktop.getChildAtIndex(index)
            if application is None or application.name != APPLICATION:
                continue
            for child in range(application.childCount):
                frame = application.getChildAtIndex(child)
                if frame is not None and frame.getState().contains(pyatspi.STATE_SHOWING):
                    return frame
        time.sleep(0.1)
    sys.exit(f"no {APPLICATION} window on the accessibility bus")


def walk(node, depth=0):
    if node is None or depth > 40:
        return
    state = node.getState()
    # GTK 4.8 marks only the window "showing"; a hidden widget is not "visible".
    if not state.contains(pyatspi.STATE_VISIBLE) and depth > 0:
        return
    yield node
    for index in range(min(node.childCount, 500)):
        yield from walk(node.getChildAtIndex(index), depth + 1)


def describe(node):
    states = node.getState()
    flags = [name for name, state in (("focused", pyatspi.STATE_FOCUSED), ("selected", pyatspi.STATE_SELECTED),
                                       ("sensitive", pyatspi.STATE_SENSITIVE), ("modal", pyatspi.STATE_MODAL))
             if states.contains(state)]
    return f"{node.getRoleName()}|{node.name}|{','.join(flags)}"


def find(name, editable=False):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        for node in walk(window()):
            if node.name == name and (not editable or node.getState().contains(pyatspi.STATE_EDITABLE)):
                return node
        time.sleep(0.1)
    sys.exit(f"no node named {name!r}")


def main(arguments):
    command = arguments[0]
    if command == "tree":
        for node in walk(window()):
            print(describe(node))
    elif command == "focused":
        for node in walk(window()):
            if node.getState().contains(pyatspi.STATE_FOCUSED):
                print(describe(node))
                return
        sys.exit("nothing is focused")
    elif command == "press":
        node = find(arguments[1])
        action = node.queryAction()
        action.doAction(0)
    elif command == "text":
        # GTK 4.8's entry keeps its text in a child (its GtkText).
        for node in walk(find(arguments[1], editable=True)):
            try:
                text = node.queryText()
            except NotImplementedError:
                continue
            # GTK 4.8 does not take -1 for "the end".
            print(text.getText(0, text.characterCount))
            return
        sys.exit(f"no text in {arguments[1]!r}")
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
