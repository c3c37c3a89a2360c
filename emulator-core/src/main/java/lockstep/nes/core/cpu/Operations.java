package lockstep.nes.core.cpu;

import static lockstep.nes.core.cpu.Cpu.*;
import static lockstep.nes.core.cpu.Opcodes.*;

/**
 * The 6502's operations on the registers and flags, the same whichever way an instruction's
 * cycles are run (cycle by cycle in {@link Cpu#tick}, or as a whole): the read operations
 * ({@link #load}, including the ALU's ADC/SBC, compares and BIT), the value a store puts on the
 * bus ({@link #store}), the read-modify-write operations ({@link #modify}, also the accumulator
 * forms), the implied ones ({@link #implied}) and the branch conditions. The 2A03 has no
 * decimal mode: D is kept in P but ADC and SBC are always binary.
 */
final class Operations {
    private Operations() {
    }

    static boolean isUnstableStore(int op) {
        return op == SHA || op == SHX || op == SHY || op == TAS;
    }

    static boolean branchTaken(Cpu c) {
        int flag = switch (c.opcode >> 6) {
            case 0 -> c.p & N;
            case 1 -> c.p & V;
            case 2 -> c.p & C;
            default -> c.p & Z;
        };
        return (flag != 0) == ((c.opcode & 0x20) != 0);
    }

    static void nz(Cpu c, int v) {
        c.p = (c.p & ~(N | Z)) | (v & N) | (v == 0 ? Z : 0);
    }

    static void setP(Cpu c, int v) {
        c.p = (v & ~B) | U;
    }

    static void adc(Cpu c, int v) {
        int sum = c.a + v + (c.p & C);
        int flags = c.p & ~(C | V);
        if (sum > 0xFF) {
            flags |= C;
        }
        if (((c.a ^ sum) & (v ^ sum) & 0x80) != 0) {
            flags |= V;
        }
        c.p = flags;
        c.a = sum & 0xFF;
        nz(c, c.a);
    }

    static void compare(Cpu c, int reg, int v) {
        int t = reg - v;
        c.p = (c.p & ~C) | (t >= 0 ? C : 0);
        nz(c, t & 0xFF);
    }

    static void load(Cpu c, int v) {
        switch (OP[c.opcode]) {
            case LDA -> { c.a = v; nz(c, c.a); }
            case LDX -> { c.x = v; nz(c, c.x); }
            case LDY -> { c.y = v; nz(c, c.y); }
            case EOR -> { c.a ^= v; nz(c, c.a); }
            case AND -> { c.a &= v; nz(c, c.a); }
            case ORA -> { c.a |= v; nz(c, c.a); }
            case ADC -> adc(c, v);
            case SBC -> adc(c, v ^ 0xFF);
            case CMP -> compare(c, c.a, v);
            case CPX -> compare(c, c.x, v);
            case CPY -> compare(c, c.y, v);
            case BIT -> c.p = (c.p & ~(N | V | Z)) | (v & (N | V)) | ((c.a & v) == 0 ? Z : 0);
            case LAX -> { c.a = v; c.x = v; nz(c, v); }
            case ANC -> {
                c.a &= v;
                nz(c, c.a);
                c.p = (c.p & ~C) | (c.a >> 7);
            }
            case ALR -> {
                c.a &= v;
                c.p = (c.p & ~C) | (c.a & 1);
                c.a >>= 1;
                nz(c, c.a);
            }
            case ARR -> {
                c.a = ((c.a & v) >> 1) | ((c.p & C) << 7);
                nz(c, c.a);
                c.p = (c.p & ~(C | V)) | ((c.a >> 6) & 1) | (((c.a >> 6) ^ (c.a >> 5)) & 1) << 6;
            }
            case AXS -> {
                int t = (c.a & c.x) - v;
                c.p = (c.p & ~C) | (t >= 0 ? C : 0);
                c.x = t & 0xFF;
                nz(c, c.x);
            }
            case LAS -> {
                c.s &= v;
                c.a = c.s;
                c.x = c.s;
                nz(c, c.s);
            }
            case ANE -> {
                c.a = (c.a | 0xEE) & c.x & v;
                nz(c, c.a);
            }
            case LXA -> {
                c.a = v;
                c.x = v;
                nz(c, v);
            }
            default -> {
                // NOP variants read and discard.
            }
        }
    }

    static int store(Cpu c) {
        return switch (OP[c.opcode]) {
            case STA -> c.a;
            case STX -> c.x;
            case STY -> c.y;
            case SAX -> c.a & c.x;
            case SHA -> c.a & c.x & c.hiPlusOne;
            case SHX -> c.x & c.hiPlusOne;
            case SHY -> c.y & c.hiPlusOne;
            case TAS -> {
                c.s = c.a & c.x;
                yield c.s & c.hiPlusOne;
            }
            default -> 0;
        };
    }

    static int modify(Cpu c, int v) {
        int r;
        switch (OP[c.opcode]) {
            case ASL -> {
                c.p = (c.p & ~C) | (v >> 7);
                r = (v << 1) & 0xFF;
                nz(c, r);
            }
            case LSR -> {
                c.p = (c.p & ~C) | (v & 1);
                r = v >> 1;
                nz(c, r);
            }
            case ROL -> {
                r = ((v << 1) | (c.p & C)) & 0xFF;
                c.p = (c.p & ~C) | (v >> 7);
                nz(c, r);
            }
            case ROR -> {
                r = (v >> 1) | ((c.p & C) << 7);
                c.p = (c.p & ~C) | (v & 1);
                nz(c, r);
            }
            case INC -> {
                r = (v + 1) & 0xFF;
                nz(c, r);
            }
            case DEC -> {
                r = (v - 1) & 0xFF;
                nz(c, r);
            }
            case SLO -> {
                c.p = (c.p & ~C) | (v >> 7);
                r = (v << 1) & 0xFF;
                c.a |= r;
                nz(c, c.a);
            }
            case SRE -> {
                c.p = (c.p & ~C) | (v & 1);
                r = v >> 1;
                c.a ^= r;
                nz(c, c.a);
            }
            case RLA -> {
                r = ((v << 1) | (c.p & C)) & 0xFF;
                c.p = (c.p & ~C) | (v >> 7);
                c.a &= r;
                nz(c, c.a);
            }
            case RRA -> {
                r = (v >> 1) | ((c.p & C) << 7);
                c.p = (c.p & ~C) | (v & 1);
                adc(c, r);
            }
            case ISC -> {
                r = (v + 1) & 0xFF;
                adc(c, r ^ 0xFF);
            }
            case DCP -> {
                r = (v - 1) & 0xFF;
                compare(c, c.a, r);
            }
            default -> r = v;
        }
        return r;
    }

    static void implied(Cpu c) {
        switch (OP[c.opcode]) {
            case CLC -> c.p &= ~C;
            case SEC -> c.p |= C;
            case CLI -> c.p &= ~I;
            case SEI -> c.p |= I;
            case CLV -> c.p &= ~V;
            case CLD -> c.p &= ~D;
            case SED -> c.p |= D;
            case TAX -> { c.x = c.a; nz(c, c.x); }
            case TXA -> { c.a = c.x; nz(c, c.a); }
            case TAY -> { c.y = c.a; nz(c, c.y); }
            case TYA -> { c.a = c.y; nz(c, c.a); }
            case TSX -> { c.x = c.s; nz(c, c.x); }
            case TXS -> c.s = c.x;
            case INX -> { c.x = (c.x + 1) & 0xFF; nz(c, c.x); }
            case INY -> { c.y = (c.y + 1) & 0xFF; nz(c, c.y); }
            case DEX -> { c.x = (c.x - 1) & 0xFF; nz(c, c.x); }
            case DEY -> { c.y = (c.y - 1) & 0xFF; nz(c, c.y); }
            case ASL, LSR, ROL, ROR -> c.a = modify(c, c.a);
            default -> {
                // NOP
            }
        }
    }
}
