#!/usr/bin/env python3
"""A phone's Bluetooth, over BlueZ's D-Bus API (bluezoo stands in for bluetoothd, which
needs a Bluetooth controller this machine does not have): what Quick Share's Fast
Initiation scanner would hear.

  bluetooth-phone.py scan ADAPTER SECONDS
      Scans for LE devices on ADAPTER (hci1) and prints, as one JSON line, the first
      service data heard under 0xFE2C: {"device": PATH, "data": HEX}. Exit 1 if none in
      SECONDS.
  bluetooth-phone.py discoverable ADAPTER
      Makes ADAPTER (the computer's, hci0) discoverable: bluezoo reports an adapter's LE
      advertisement only from a discoverable one (bluetoothd has no such rule; a real
      radio is heard either way).
  bluetooth-phone.py advertisements ADAPTER
      Prints how many advertisements ADAPTER (hci0) has on the air (ActiveInstances).

The system bus is DBUS_SYSTEM_BUS_ADDRESS's.
"""
import json
import sys
import time

import sdbus

FAST_INITIATION = "0000fe2c-0000-1000-8000-00805f9b34fb"
bus = sdbus.sd_bus_open_system()


def call(path, interface, member, signature=None, *arguments):
    message = bus.new_method_call_message("org.bluez", path, interface, member)
    if signature:
        message.append_data(signature, *arguments)
    return bus.call(message).get_contents()


def scan(adapter, seconds):
    path = "/org/bluez/" + adapter
    # LE only: bluezoo reports a discoverable adapter's BR/EDR side at the same device path,
    # which would hide its LE advertisement's data.
    call(path, "org.bluez.Adapter1", "SetDiscoveryFilter", "a{sv}", {"Transport": ("s", "le")})
    call(path, "org.bluez.Adapter1", "StartDiscovery")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for device, interfaces in call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects").items():
            properties = interfaces.get("org.bluez.Device1")
            if not properties or not device.startswith(path + "/"):
                continue
            data = properties.get("ServiceData", ("a{sv}", {}))[1].get(FAST_INITIATION)
            if data:
                print(json.dumps({"device": device, "data": data[1].hex()}), flush=True)
                return 0
        time.sleep(0.2)
    return 1


def advertisements(adapter):
    signature, count = call("/org/bluez/" + adapter, "org.freedesktop.DBus.Properties", "Get", "ss",
                            "org.bluez.LEAdvertisingManager1", "ActiveInstances")
    print(count, flush=True)
    return 0


def discoverable(adapter):
    call("/org/bluez/" + adapter, "org.freedesktop.DBus.Properties", "Set", "ssv", "org.bluez.Adapter1", "Discoverable", ("b", True))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "discoverable":
        sys.exit(discoverable(sys.argv[2]))
    if len(sys.argv) == 4 and sys.argv[1] == "scan":
        sys.exit(scan(sys.argv[2], float(sys.argv[3])))
    if len(sys.argv) == 3 and sys.argv[1] == "advertisements":
        sys.exit(advertisements(sys.argv[2]))
    sys.exit(__doc__)
