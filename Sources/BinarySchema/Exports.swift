@_exported import BinaryIO
