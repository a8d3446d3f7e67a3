"""The servers and clients scripts/capture-ics.sh runs (real implementations from PyPI, in the
virtual environment the script makes):

  ics-peers.py modbus-server | modbus-client     pymodbus: TCP 502
  ics-peers.py s7-server | s7-client             python-snap7 (pure Python): TCP 102
  ics-peers.py enip-client                       pycomm3 against cpppo's EtherNet/IP server, TCP 44818
  ics-peers.py dnp3-outstation | dnp3-master     dnp3py (pure Python): TCP 20000
  ics-peers.py iec104-server | iec104-client     c104 (IEC 60870-5-104): TCP 2404

Each client does a fixed list of requests, each bounded by a timeout, and exits; the servers
run until the capture script stops them.
"""
import logging
import sys
import time


def modbus_server():
    from pymodbus.datastore import ModbusDeviceContext, ModbusSequentialDataBlock, ModbusServerContext
    from pymodbus.pdu.device import ModbusDeviceIdentification
    from pymodbus.server import StartTcpServer
    # pymodbus's data blocks start at address 1 for protocol address 0.
    device = ModbusDeviceContext(di=ModbusSequentialDataBlock(1, [1, 0, 1, 1, 0, 0, 1, 0] * 4),
                                 co=ModbusSequentialDataBlock(1, [0, 1, 0, 1] * 8),
                                 hr=ModbusSequentialDataBlock(1, list(range(100, 132))),
                                 ir=ModbusSequentialDataBlock(1, list(range(2000, 2032))))
    identity = ModbusDeviceIdentification(info_name={"VendorName": "dissect", "ProductCode": "DX",
                                                     "MajorMinorRevision": "1.0"})
    StartTcpServer(context=ModbusServerContext(devices=device, single=True), identity=identity,
                   address=("127.0.0.1", 502))


def modbus_client():
    from pymodbus.client import ModbusTcpClient
    client = ModbusTcpClient("127.0.0.1", port=502, timeout=3, retries=0)
    client.connect()
    calls = [
        lambda: client.read_coils(0, count=10),
        lambda: client.read_discrete_inputs(0, count=8),
        lambda: client.read_holding_registers(0, count=4),
        lambda: client.read_input_registers(2, count=3),
        lambda: client.write_coil(3, True),
        lambda: client.write_register(1, 0x1234),
        lambda: client.write_coils(8, [True, False, True]),
        lambda: client.write_registers(4, [7, 8, 9]),
        lambda: client.readwrite_registers(read_address=0, read_count=2, write_address=10, values=[5, 6]),
        lambda: client.mask_write_register(address=2, and_mask=0xF2, or_mask=0x25),
        lambda: client.read_holding_registers(1000, count=2),        # exception 2: illegal data address
        lambda: client.read_device_information(read_code=1),
        lambda: client.read_exception_status(),
        lambda: client.diag_query_data(b"\xa5\x37"),
        lambda: client.report_device_id(),
        lambda: client.read_fifo_queue(address=0),                    # exception 1: illegal function
    ]
    for call in calls:
        try:
            print(call())
        except Exception as error:  # a request that fails is still on the wire
            print("error:", error)
    client.close()


def s7_server():
    import snap7
    from snap7.type import SrvArea
    server = snap7.server.Server()
    db1 = bytearray(range(64))
    server.register_area(SrvArea.DB, 1, db1)
    server.register_area(SrvArea.MK, 0, bytearray(32))
    server.start_to("127.0.0.1", 102)
    while True:
        time.sleep(1)


def s7_client():
    import snap7
    from snap7.type import Area, WordLen
    client = snap7.client.Client()
    client.connect("127.0.0.1", 0, 1)
    calls = [
        lambda: client.db_read(1, 0, 8),
        lambda: client.db_write(1, 4, bytearray(b"\x11\x22\x33\x44")),
        lambda: client.read_area(Area.MK, 0, 2, 4),
        lambda: client.db_read(7, 0, 4),                               # no DB 7: an error item
        lambda: client.read_szl(0x001C, 0),
    ]
    for call in calls:
        try:
            print(call())
        except Exception as error:
            print("error:", error)
    client.disconnect()


def enip_client():
    from pycomm3 import CIPDriver, LogixDriver, Services, ClassCode
    print(CIPDriver.list_identity("127.0.0.1"))
    with CIPDriver("127.0.0.1") as driver:
        print(driver.generic_message(service=Services.get_attribute_single, class_code=ClassCode.identity_object,
                                     instance=1, attribute=7, connected=False, name="product name"))
        print(driver.generic_message(service=Services.get_attributes_all, class_code=ClassCode.identity_object,
                                     instance=1, connected=False, name="identity"))


def dnp3_outstation():
    import asyncio
    from dnp3.database import AnalogInputConfig, BinaryInputConfig, Database
    from dnp3.outstation import Outstation, OutstationConfig, OutstationTcpRunner

    async def run():
        database = Database()
        for index in range(4):
            database.add_binary_input(index, BinaryInputConfig())
            database.add_analog_input(index, AnalogInputConfig())
        database.add_binary_output(0)
        database.add_counter(0)
        database.update_binary_input(1, value=True)
        database.update_analog_input(0, value=42)
        database.update_analog_input(2, value=-7)
        outstation = Outstation(database=database, config=OutstationConfig(address=10))
        await OutstationTcpRunner(outstation=outstation, host="127.0.0.1", port=20000).run()
    asyncio.run(run())


def dnp3_master():
    import asyncio
    from dnp3.master import DefaultSOEHandler, Master, MasterConfig, MasterTcpRunner
    from dnp3.master.commands import CommandBuilder

    async def run():
        master = Master(handler=DefaultSOEHandler(), config=MasterConfig(address=1, outstation_address=10))
        async with MasterTcpRunner(master=master, host="127.0.0.1", port=20000) as runner:
            for step in [lambda: runner.integrity_poll(),
                         lambda: runner.class_poll(class_1=True, class_2=True, class_3=True),
                         lambda: runner.request(master.build_range_poll(30, 1, 0, 3)),
                         lambda: runner.request(master.build_direct_operate(CommandBuilder().latch_on(0).build_direct_operate())),
                         lambda: runner.request(master.build_select(CommandBuilder().latch_off(0).build_select())),
                         lambda: runner.request(master.build_operate(CommandBuilder().latch_off(0).build_operate())),
                         lambda: runner.request(master.build_delay_measure())]:
                try:
                    print(await asyncio.wait_for(step(), 5))
                except Exception as error:
                    print("error:", error)
    asyncio.run(run())


def iec104_server():
    import c104
    server = c104.Server(ip="127.0.0.1", port=2404)
    station = server.add_station(common_address=47)
    measured = station.add_point(io_address=11, type=c104.Type.M_ME_NC_1)
    measured.value = 12.5
    single = station.add_point(io_address=12, type=c104.Type.M_SP_NA_1)
    single.value = True
    station.add_point(io_address=21, type=c104.Type.C_SC_NA_1)
    server.start()
    while True:
        time.sleep(1)


def iec104_client():
    import c104
    client = c104.Client()
    connection = client.add_connection(ip="127.0.0.1", port=2404, init=c104.Init.ALL)
    station = connection.add_station(common_address=47)
    measured = station.add_point(io_address=11, type=c104.Type.M_ME_NC_1)
    command = station.add_point(io_address=21, type=c104.Type.C_SC_NA_1)
    client.start()
    deadline = time.time() + 10
    while not connection.is_connected and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    print(measured.read())
    command.value = True
    print(command.transmit(cause=c104.Cot.ACTIVATION))
    time.sleep(1)
    client.stop()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    {"modbus-server": modbus_server, "modbus-client": modbus_client, "s7-server": s7_server,
     "s7-client": s7_client, "enip-client": enip_client, "dnp3-outstation": dnp3_outstation,
     "dnp3-master": dnp3_master, "iec104-server": iec104_server, "iec104-client": iec104_client}[sys.argv[1]]()
