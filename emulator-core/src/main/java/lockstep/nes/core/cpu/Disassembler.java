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
        boolean acc = MODE[op] == IMP && (op & 0x0F) == 0x0A && op < 0x80;
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
