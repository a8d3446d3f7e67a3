/// When a packet was captured: seconds since 1970-01-01 UTC and the nanoseconds within that second.
public struct CaptureTime: Sendable, Hashable {
    /// Seconds since 1970 (UTC).
    public var seconds: Int
    /// Nanoseconds within that second.
    public var nanoseconds: Int
    /// Seconds east of UTC of the time zone it is shown in (0: UTC). JSON ignores it.
    public var utcOffset: Int

    /// A time `seconds` after 1970 plus `nanoseconds`, shown `utcOffset` seconds east of UTC.
    public init(seconds: Int, nanoseconds: Int, utcOffset: Int = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.utcOffset = utcOffset
    }

    /// The time from `earlier` to this one (negative when this one is earlier), nanoseconds in 0..<10⁹.
    public func since(_ earlier: CaptureTime) -> CaptureTime {
        var seconds = self.seconds.subtractingReportingOverflow(earlier.seconds).partialValue
        var nanoseconds = self.nanoseconds - earlier.nanoseconds
        if nanoseconds < 0 {
            nanoseconds += 1_000_000_000
            seconds = seconds.subtractingReportingOverflow(1).partialValue
        }
        return CaptureTime(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// Civil date and time in UTC. Days are converted with the proleptic Gregorian calendar
    /// so any 64-bit time from a file, however odd, formats without trapping.
    var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        civil(at: seconds)
    }

    /// Civil date and time in the time zone it is shown in.
    var localCivil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let shifted = seconds.addingReportingOverflow(utcOffset)
        return civil(at: shifted.overflow ? seconds : shifted.partialValue)
    }

    private func civil(at seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
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
    /// A frame's time in `style` (the frame has one), to `digits` digits of a second; with
    /// `zone`, a date and time says its zone (`UTC`, `+0100`).
    mutating func appendTime(of frame: FrameInfo, style: TimeStyle, digits: Int, zone: Bool) {
        guard let time = frame.time else { return }
        switch style {
        case .none: return
        case .timeOfDay:
            appendClock(time.localCivil, time.nanoseconds, digits: digits)
        case .dateAndTime:
            let civil = time.localCivil
            appendDate(civil)
            append(byte: UInt8(ascii: " "))
            appendClock(civil, time.nanoseconds, digits: digits)
            if zone { appendZone(time.utcOffset) }
        case .epoch:
            if time.seconds < 0 { append(byte: UInt8(ascii: "-")) }
            appendDecimal(time.seconds.magnitude)
            appendFraction(time.nanoseconds, digits: digits)
        case .sincePrevious, .sinceFirst:
            let elapsed = frame.elapsed ?? CaptureTime(seconds: 0, nanoseconds: 0)
            // A negative interval (a capture's clock stepped back) is shown as one, tcpdump's way.
            let negative = elapsed.seconds < 0
            let magnitude = negative ? CaptureTime(seconds: 0, nanoseconds: 0).since(elapsed) : elapsed
            if negative { append(byte: UInt8(ascii: "-")) }
            let total = magnitude.seconds
            appendPadded(total / 3600, digits: 2)
            append(byte: UInt8(ascii: ":"))
            appendPadded(total / 60 % 60, digits: 2)
            append(byte: UInt8(ascii: ":"))
            appendPadded(total % 60, digits: 2)
            appendFraction(magnitude.nanoseconds, digits: digits)
        }
    }

    private mutating func appendClock(_ civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int),
                                      _ nanoseconds: Int, digits: Int) {
        appendPadded(civil.hour, digits: 2)
        append(byte: UInt8(ascii: ":"))
        appendPadded(civil.minute, digits: 2)
        append(byte: UInt8(ascii: ":"))
        appendPadded(civil.second, digits: 2)
        appendFraction(nanoseconds, digits: digits)
    }

    private mutating func appendDate(_ civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)) {
        if civil.year < 0 { append(byte: UInt8(ascii: "-")) }
        appendPadded(abs(civil.year), digits: 4)
        append(byte: UInt8(ascii: "-"))
        appendPadded(civil.month, digits: 2)
        append(byte: UInt8(ascii: "-"))
        appendPadded(civil.day, digits: 2)
    }

    /// `.740443` for 6 digits of 740443000 ns (cut, not rounded, as tcpdump); nothing for 0 digits.
    private mutating func appendFraction(_ nanoseconds: Int, digits: Int) {
        let digits = min(9, max(0, digits))
        guard digits > 0 else { return }
        var scaled = min(999_999_999, max(0, nanoseconds))
        for _ in digits..<9 { scaled /= 10 }
        append(byte: UInt8(ascii: "."))
        appendPadded(scaled, digits: digits)
    }

    private mutating func appendZone(_ offset: Int) {
        guard offset != 0 else {
            append(" UTC" as StaticString)
            return
        }
        append(byte: UInt8(ascii: " "))
        append(byte: UInt8(ascii: offset < 0 ? "-" : "+"))
        let minutes = Int(offset.magnitude / 60)
        appendPadded(minutes / 60 % 100, digits: 2)
        appendPadded(minutes % 60, digits: 2)
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
        appendClock(civil, time.nanoseconds, digits: 9)
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
