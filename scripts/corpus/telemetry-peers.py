"""The peers scripts/capture-telemetry.sh runs (each role bounded in time):

    telemetry-peers.py bacnet-server ADDRESS/PREFIX    a BACnet/IP device (bacpypes3), instance 1001
    telemetry-peers.py bacnet-client ADDRESS/PREFIX SERVER
    telemetry-peers.py opcua-server HOST PORT          an OPC UA server (asyncua), security None
    telemetry-peers.py opcua-client HOST PORT
    telemetry-peers.py pmu HOST PORT                   an IEEE C37.118 PMU (pypmu), ID 7734
    telemetry-peers.py pdc HOST PORT                   a PDC: header, configuration, 5 data frames
    telemetry-peers.py ads-server HOST                 pyads's ADS test server (AMS/TCP 48898)
    telemetry-peers.py ads-client HOST                 pyads (Beckhoff's AdsLib) as a client
"""
import asyncio
import collections
import collections.abc
import sys

# pypmu (synchrophasor 1.0.0a0, 2017) still names collections.Sequence, which Python 3.10 moved
# to collections.abc; without it every frame it reads fails to decode.
for _name in ("Sequence", "Mapping", "Iterable"):
    if not hasattr(collections, _name):
        setattr(collections, _name, getattr(collections.abc, _name))


async def bacnet_server(address):
    from bacpypes3.argparse import SimpleArgumentParser
    from bacpypes3.app import Application
    from bacpypes3.local.analog import AnalogValueObject
    from bacpypes3.local.binary import BinaryValueObject
    args = SimpleArgumentParser().parse_args(["--address", address, "--instance", "1001", "--name", "Boiler"])
    app = Application.from_args(args)
    app.add_object(AnalogValueObject(objectIdentifier=("analogValue", 1), objectName="Supply Temp",
                                     presentValue=71.5, statusFlags=[0, 0, 0, 0], units="degreesFahrenheit",
                                     covIncrement=1.0, description="supply water"))
    app.add_object(BinaryValueObject(objectIdentifier=("binaryValue", 1), objectName="Pump",
                                     presentValue="active", statusFlags=[0, 0, 0, 0]))
    await asyncio.sleep(60)


async def bacnet_client(address, server):
    from bacpypes3.argparse import SimpleArgumentParser
    from bacpypes3.app import Application
    from bacpypes3.pdu import Address
    from bacpypes3.primitivedata import Real, ObjectIdentifier
    args = SimpleArgumentParser().parse_args(["--address", address, "--instance", "1002", "--name", "Workstation"])
    app = Application.from_args(args)
    await asyncio.sleep(0.5)
    print(await app.who_is())
    print(await app.who_is(1001, 1001))
    peer = Address(server)
    for objid, prop in [("device,1001", "object-name"), ("device,1001", "vendor-name"),
                        ("device,1001", "protocol-version"), ("analog-value,1", "present-value"),
                        ("analog-value,1", "units"), ("analog-value,1", "status-flags"),
                        ("binary-value,1", "present-value"), ("device,1001", "object-list"),
                        ("analog-value,9", "present-value"), ("analog-value,1", "file-size")]:
        try:
            print(objid, prop, await app.read_property(peer, objid, prop))
        except BaseException as error:
            print(objid, prop, "error", error)
    try:
        print(await app.write_property(peer, "analog-value,1", "present-value", Real(68.0)))
    except BaseException as error:
        print("write error", error)
    try:
        print(await app.read_property_multiple(peer, [ObjectIdentifier("analog-value,1"),
                                                      ["present-value", "object-name", "units"]]))
    except BaseException as error:
        print("rpm error", error)
    try:
        print(await app.who_has(object_name="Pump"))
    except BaseException as error:
        print("who-has error", error)
    await asyncio.sleep(0.5)


async def opcua_server(host, port):
    from asyncua import Server, ua
    server = Server()
    await server.init()
    server.set_endpoint(f"opc.tcp://{host}:{port}/dissect/")
    server.set_server_name("dissect OPC UA server")
    server.set_security_policy([ua.SecurityPolicyType.NoSecurity])
    index = await server.register_namespace("urn:dissect:telemetry")
    boiler = await server.nodes.objects.add_object(index, "Boiler")
    temperature = await boiler.add_variable(index, "Temperature", 71.5)
    await temperature.set_writable()
    await boiler.add_variable(index, "Running", True)
    await boiler.add_variable(index, "Name", "Boiler 1")
    async with server:
        await asyncio.sleep(80)


async def opcua_client(host, port):
    from asyncua import Client, ua
    async with Client(url=f"opc.tcp://{host}:{port}/dissect/", timeout=10) as client:
        index = await client.get_namespace_index("urn:dissect:telemetry")
        objects = client.nodes.objects
        for child in await objects.get_children():
            print(await child.read_browse_name())
        boiler = await objects.get_child([f"{index}:Boiler"])
        for variable in await boiler.get_children():
            print(await variable.read_browse_name(), await variable.read_value())
        temperature = await boiler.get_child([f"{index}:Temperature"])
        await temperature.write_value(68.0)
        print(await temperature.read_value())
        try:
            await client.get_node("ns=7;i=4242").read_value()
        except Exception as error:
            print("read error", error)


def pmu(host, port):
    import time
    from synchrophasor.pmu import Pmu
    station = Pmu(pmu_id=7734, data_rate=10, port=int(port), ip=host)
    station.set_header("dissect telemetry PMU")
    station.run()
    deadline = time.time() + 60
    while time.time() < deadline:
        if station.clients:
            station.send(station.ieee_data_sample)
        time.sleep(0.1)


def pdc(host, port):
    from synchrophasor.pdc import Pdc
    collector = Pdc(pdc_id=7, pmu_ip=host, pmu_port=int(port))
    collector.run()
    print(collector.get_header())
    print(collector.get_config())
    print(collector.get_config("cfg1"))
    collector.start()
    for _ in range(5):
        print(collector.get())
    collector.stop()
    collector.quit()


def ads_server(host):
    import time
    import pyads
    from pyads.testserver import AdsTestServer, AdvancedHandler, PLCVariable
    handler = AdvancedHandler()
    handler.add_variable(PLCVariable("MAIN.counter", 42, pyads.constants.ADST_INT16, "INT"))
    handler.add_variable(PLCVariable("MAIN.temperature", 71.5, pyads.constants.ADST_REAL64, "LREAL"))
    server = AdsTestServer(handler=handler, ip_address=host, logging=False)
    server.start()
    time.sleep(60)
    server.stop()


def ads_client(host):
    import pyads
    pyads.open_port()
    pyads.set_local_address("10.47.0.2.1.1")
    pyads.close_port()
    plc = pyads.Connection("10.47.0.1.1.1", pyads.PORT_TC3PLC1, host)
    steps = [
        ("device info", lambda: plc.read_device_info()),
        ("state", lambda: plc.read_state()),
        ("read counter", lambda: plc.read_by_name("MAIN.counter", pyads.PLCTYPE_INT)),
        ("write counter", lambda: plc.write_by_name("MAIN.counter", 7, pyads.PLCTYPE_INT)),
        ("read counter", lambda: plc.read_by_name("MAIN.counter", pyads.PLCTYPE_INT)),
        ("read temperature", lambda: plc.read_by_name("MAIN.temperature", pyads.PLCTYPE_LREAL)),
        ("read missing", lambda: plc.read_by_name("MAIN.missing", pyads.PLCTYPE_INT)),
    ]
    with plc:
        for name, step in steps:
            try:
                print(name, step())
            except Exception as error:
                print(name, "error", error)


def main():
    role, rest = sys.argv[1], sys.argv[2:]
    if role == "bacnet-server":
        asyncio.run(bacnet_server(*rest))
    elif role == "bacnet-client":
        asyncio.run(bacnet_client(*rest))
    elif role == "opcua-server":
        asyncio.run(opcua_server(*rest))
    elif role == "opcua-client":
        asyncio.run(opcua_client(*rest))
    elif role == "pmu":
        pmu(*rest)
    elif role == "pdc":
        pdc(*rest)
    elif role == "ads-server":
        ads_server(*rest)
    elif role == "ads-client":
        ads_client(*rest)
    else:
        sys.exit(f"unknown role {role}")


if __name__ == "__main__":
    main()
