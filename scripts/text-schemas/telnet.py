import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS
def first_of(lo, hi, fallback):
    s = fallback
    for i in reversed(range(lo, hi)):
        s = f"remaining() > {i} && (peek({i}) == 0xFF || peek({i}) == 0x0A || peek({i}) == 0x0D) ? {i} : {s}"
    return s
def first_ff(lo, hi, fallback):
    s = fallback
    for i in reversed(range(lo, hi)):
        s = f"remaining() > {i} && peek({i}) == 0xFF ? {i} : {s}"
    return s

s = f"""// Telnet (RFC 854) on TCP port 23: the data, and the commands (IAC, 0xFF, then a command byte)
// with the option negotiation (WILL, WON'T, DO, DON'T and an option, RFC 855) and the
// suboptions (SB, an option, its data, then IAC SE), decoded as tshark decodes the common ones:
// terminal type (RFC 1091), window size (NAWS, RFC 1073), remote flow control (RFC 1372) and
// the encryption option's command (RFC 2946); another option's data is telnet.option_data.
//
//   dissect -r Corpus/captures/telnet.pcap --no-tcp-reassembly -f tree
//
// Filter names are Wireshark's: telnet.cmd (the command byte), telnet.subcmd (the option of a
// negotiation or suboption, and the IS or SEND of a terminal type), telnet.option_data,
// telnet.string_subopt.value, telnet.naws_subopt.width and height, telnet.rfc_subopt.cmd,
// telnet.enc.cmd, telnet.data (text between commands, one item a line, as tshark splits it).
//
// Limits: no state across segments: a suboption that a segment cuts (its IAC SE in the next) is
// option data to the segment's end; a data line longer than 192 bytes is split in items of 192, and suboption data
// longer than 192 bytes runs to the segment's end;
// an escaped 0xFF in data (IAC IAC) is a command 255 here.

endian big

register tcp.port 23 => Telnet

enum TelnetCommand: u8 {{
  se = 240, nop = 241, data_mark = 242, break = 243, interrupt_process = 244, abort_output = 245,
  are_you_there = 246, erase_character = 247, erase_line = 248, go_ahead = 249, sb = 250,
  will = 251, wont = 252, do = 253, dont = 254, iac = 255,
}}

enum TelnetOption: u8 {{
  binary_transmission = 0, echo = 1, reconnection = 2, suppress_go_ahead = 3, approx_message_size = 4,
  status = 5, timing_mark = 6, remote_controlled_trans_and_echo = 7, output_line_width = 8,
  output_page_size = 9, output_cr_disposition = 10, output_horizontal_tab_stops = 11,
  output_horizontal_tab_disposition = 12, output_formfeed_disposition = 13, output_vertical_tabstops = 14,
  output_vertical_tab_disposition = 15, output_linefeed_disposition = 16, extended_ascii = 17,
  logout = 18, byte_macro = 19, data_entry_terminal = 20, supdup = 21, supdup_output = 22,
  send_location = 23, terminal_type = 24, end_of_record = 25, tacacs_user_identification = 26,
  output_marking = 27, terminal_location_number = 28, telnet_3270_regime = 29, x_3_pad = 30,
  negotiate_about_window_size = 31, terminal_speed = 32, remote_flow_control = 33, linemode = 34,
  x_display_location = 35, environment_option = 36, authentication_option = 37, encryption_option = 38,
  new_environment_option = 39, tn3270e = 40, xauth = 41, charset = 42, remote_serial_port = 43,
  com_port_control = 44, suppress_local_echo = 45, start_tls = 46, kermit = 47, send_url = 48,
  forward_x = 49, pragma_logon = 138, sspi_logon = 139, pragma_heartbeat = 140,
  extended_options_list = 255,
}}

@protocol("telnet") @label("TELNET") @summary("{{len(item)}} items{{?: {{item[0].cmd}}}}{{? {{item[0].option}}}}{{?: {{item[0].data}}}}")
struct Telnet {{
  item: TelnetItem[..] @name("")
}}

typealias TelnetItem = switch {{
  peek(0) == 0xFF => TelnetCommandItem
  _ => TelnetData
}}

// Text up to the next IAC, or to the end of a line (CR LF, LF or CR included), as tshark splits it.
struct TelnetData {{
  hidden let a = {first_of(0, 48, "-2")}
  hidden let b = a != -2 ? a : {first_of(48, 96, "-2")}
  hidden let c = b != -2 ? b : {first_of(96, 144, "-2")}
  hidden let d = c != -2 ? c : {first_of(144, 192, "-2")}
  hidden let p = d == -2 ? min(192, remaining()) : d
  hidden let n = p >= remaining() ? remaining() :
    peek(p) == 0xFF ? p :
    peek(p) == 0x0D && p + 1 < remaining() && peek(p + 1) == 0x0A ? p + 2 : p + 1
  data: string[n] @encoding("latin1") @name("telnet.data")
}}

struct TelnetCommandItem {{
  iac: u8 == 0xFF @hex @name("telnet.iac")
  cmd: TelnetCommand if remaining() > 0 @name("telnet.cmd")
  option: TelnetOption if has(cmd) && cmd >= 250 && cmd <= 254 && remaining() > 0 @name("telnet.subcmd")
  // A suboption's data, up to the IAC of the IAC SE that ends it (the next item).
  hidden let sb = has(option) && cmd == .sb
  hidden let e = sb ? {first_ff(0, 64, "-2")} : -1
  hidden let f = e != -2 ? e : {first_ff(64, 128, "-2")}
  hidden let g = f != -2 ? f : {first_ff(128, 192, "-2")}
  hidden let sn = g < 0 ? remaining() : g
  suboption: switch {{
    option == .terminal_type => TelnetTerminalType
    option == .negotiate_about_window_size && sn >= 4 => TelnetWindowSize
    option == .remote_flow_control => TelnetRemoteFlowControl
    option == .encryption_option => TelnetEncryption
    _ => bytes[..] @name("telnet.option_data")
  }} if sb && sn > 0 @size(sn) @name("")
}}

enum TelnetTerminalTypeCommand: u8 {{ is = 0, send = 1 }}

struct TelnetTerminalType {{
  command: TelnetTerminalTypeCommand @name("telnet.subcmd")
  value: string[..] if remaining() > 0 @encoding("latin1") @name("telnet.string_subopt.value")
}}

struct TelnetWindowSize {{
  width: u16 @name("telnet.naws_subopt.width")
  height: u16 @name("telnet.naws_subopt.height")
  data: bytes[..] if remaining() > 0 @name("telnet.option_data")
}}

enum TelnetRemoteFlowControlCommand: u8 {{ off = 0, on = 1, restart_any = 2, restart_xon = 3 }}

struct TelnetRemoteFlowControl {{
  command: TelnetRemoteFlowControlCommand @name("telnet.rfc_subopt.cmd")
  data: bytes[..] if remaining() > 0 @name("telnet.option_data")
}}

enum TelnetEncryptionCommand: u8 {{
  is = 0, support = 1, reply = 2, start = 3, end = 4, request_start = 5, request_end = 6, enc_keyid = 7, dec_keyid = 8,
}}

struct TelnetEncryption {{
  command: TelnetEncryptionCommand @name("telnet.enc.cmd")
  data: bytes[..] if remaining() > 0 @name("telnet.enc.type_data")
}}
"""
open(os.path.join(SCHEMAS, "telnet.schema"), "w").write("// Generated by scripts/text-schemas/telnet.py (its peek chains are unrolled there): edit it and run it again.\n" + s)
