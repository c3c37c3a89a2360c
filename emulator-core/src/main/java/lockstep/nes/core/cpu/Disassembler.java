package lockstep.nes.core.cpu;

import static lockstep.nes.core.cpu.Opcodes.*;

import java.util.function.IntUnaryOperator;

/** Turns instruction bytes into 6502 assembly text (for traces and divergence reports). */
public final class Disassembler {
    private Disassembler() {
    }

    /** The instruction length in bytes of {@code opcode}. */
    public static int length(int opcode) {
        return switch (MODE[opcode & 0xFF]) {
            case IMP, RTS, RTI, PSH, PUL, JAM, BRK -> 1;
            case ABS, ABX, ABY, JMP, JMI, JSR -> 3;
            default -> 2;
        };
    }

    /**
     * True for the 151 opcodes of the documented instruction set; false for the others (the
     * extra NOPs, SBC $EB, the combined operations such as SLO or LAX, and the JAMs).
     */
    public static boolean official(int opcode) {
        int op = opcode & 0xFF;
        int kind = OP[op];
        if (kind == NOP) {
            return op == 0xEA;
        }
        if (op == 0xEB || MODE[op] == JAM) {
            return false;
        }
        return !(kind >= LAX && kind <= LXA) && !(kind >= SAX && kind <= TAS)
                && !(kind >= SLO && kind <= DCP);
    }

    /** True when {@code opcode} works on the accumulator (ASL A, LSR A, ROL A, ROR A). */
    public static boolean accumulator(int opcode) {
        int op = opcode & 0xFF;
        return MODE[op] == IMP && (OP[op] == ASL || OP[op] == LSR || OP[op] == ROL || OP[op] == ROR);
    }

    /** How an instruction finds its operand, as a trace or debugger shows it. */
    public enum Addressing {
        IMPLIED, IMMEDIATE, ZERO_PAGE, ZERO_PAGE_X, ZERO_PAGE_Y, ABSOLUTE, ABSOLUTE_X, ABSOLUTE_Y,
        /** (zp,X) */ INDEXED_INDIRECT,
        /** (zp),Y */ INDIRECT_INDEXED,
        RELATIVE,
        /** JMP (abs) */ INDIRECT,
        /** JMP abs and JSR: the operand is the target, not a memory value */ JUMP
    }

    /** The addressing of {@code opcode}. */
    public static Addressing addressing(int opcode) {
        return switch (MODE[opcode & 0xFF]) {
            case IMM -> Addressing.IMMEDIATE;
            case ZP -> Addressing.ZERO_PAGE;
            case ZPX -> Addressing.ZERO_PAGE_X;
            case ZPY -> Addressing.ZERO_PAGE_Y;
            case ABS -> Addressing.ABSOLUTE;
            case ABX -> Addressing.ABSOLUTE_X;
            case ABY -> Addressing.ABSOLUTE_Y;
            case IZX -> Addressing.INDEXED_INDIRECT;
            case IZY -> Addressing.INDIRECT_INDEXED;
            case REL -> Addressing.RELATIVE;
            case JMI -> Addressing.INDIRECT;
            case JMP, JSR -> Addressing.JUMP;
            default -> Addressing.IMPLIED;
        };
    }

    /** The mnemonic of {@code opcode} ("LDA", "SLO", ...). */
    public static String mnemonic(int opcode) {
        return NAME[opcode & 0xFF];
    }

    /** Disassembles the instruction at {@code pc}, reading memory through {@code peek}. */
    public static String disassemble(int pc, IntUnaryOperator peek) {
        int op = peek.applyAsInt(pc) & 0xFF;
        int b1 = peek.applyAsInt((pc + 1) & 0xFFFF) & 0xFF;
        int b2 = peek.applyAsInt((pc + 2) & 0xFFFF) & 0xFF;
        int w = b1 | (b2 << 8);
        String name = NAME[op];
        boolean acc = accumulator(op);
        String operand = switch (MODE[op]) {
            case IMP -> acc ? "A" : "";
            case IMM -> String.format("#$%02X", b1);
            case ZP -> String.format("$%02X", b1);
            case ZPX -> String.format("$%02X,X", b1);
            case ZPY -> String.format("$%02X,Y", b1);
            case ABS, JMP, JSR -> String.format("$%04X", w);
            case ABX -> String.format("$%04X,X", w);
            case ABY -> String.format("$%04X,Y", w);
            case IZX -> String.format("($%02X,X)", b1);
            case IZY -> String.format("($%02X),Y", b1);
            case JMI -> String.format("($%04X)", w);
            case REL -> String.format("$%04X", (pc + 2 + (byte) b1) & 0xFFFF);
            default -> "";
        };
        return operand.isEmpty() ? name : name + " " + operand;
    }
}
