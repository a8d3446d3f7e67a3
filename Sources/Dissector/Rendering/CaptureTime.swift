/// When a packet was captured: seconds since 1970-01-01 UTC and the nanoseconds within that second.
public struct CaptureTime: Sendable, Hashable {
    /// Seconds since 1970 (UTC).
    public var seconds: Int
    /// Nanoseconds within that second.
    public var nanoseconds: Int

    /// A time `seconds` after 1970 plus `nanoseconds`.
    public init(seconds: Int, nanoseconds: Int) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Civil date and time in UTC. Days are converted with the proleptic Gregorian calendar
    /// so any 64-bit time from a file, however odd, formats without trapping.
    var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let secondsPerDay = 86_400
        var days = seconds / secondsPerDay
        var secondOfDay = seconds % secondsPerDay
        if secondOfDay < 0 {
            secondOfDay += secondsPerDay
            days -= 1
        }
        // Shift the epoch to 0000-03-01 so leap days fall at the end of each 400-year era.
        let shifted = days.addingReportingOverflow(719_468)
        let dayNumber = shifted.overflow ? days : shifted.partialValue
        let era = (dayNumber >= 0 ? dayNumber : dayNumber - 146_096) / 146_097
        let dayOfEra = dayNumber - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }
}

extension TextSink {
    /// `HH:MM:SS.nnnnnnnnn`, UTC: the time of day, as tcpdump prints it but in UTC and to the nanosecond.
    mutating func appendTimeOfDay(_ time: CaptureTime) {
        let civil = time.civil
        appendPadded(civil.hour, digits: 2)
        append(byte: UInt8(ascii: ":"))
        appendPadded(civil.minute, digits: 2)
        append(byte: UInt8(ascii: ":"))
        appendPadded(civil.second, digits: 2)
        append(byte: UInt8(ascii: "."))
        appendPadded(time.nanoseconds, digits: 9)
    }

    /// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`: RFC 3339 in UTC.
    mutating func appendISO8601(_ time: CaptureTime) {
        let civil = time.civil
        if civil.year < 0 { append(byte: UInt8(ascii: "-")) }
        appendPadded(abs(civil.year), digits: 4)
        append(byte: UInt8(ascii: "-"))
        appendPadded(civil.month, digits: 2)
        append(byte: UInt8(ascii: "-"))
        appendPadded(civil.day, digits: 2)
        append(byte: UInt8(ascii: "T"))
        appendTimeOfDay(time)
        append(byte: UInt8(ascii: "Z"))
    }

    private mutating func appendPadded(_ value: Int, digits: Int) {
        let clamped = max(0, value)
        var width = 1
        var power = 10
        while width < 19, power <= clamped {
            width += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        for _ in width..<max(width, digits) { append(byte: UInt8(ascii: "0")) }
        appendDecimal(clamped)
    }
}
