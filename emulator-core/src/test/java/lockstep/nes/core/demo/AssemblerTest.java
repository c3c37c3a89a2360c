package lockstep.nes.core.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeSet;
import lockstep.nes.core.cpu.Disassembler;
import org.junit.jupiter.api.Test;

class AssemblerTest {
    /** Assembles {@code lines} at $8000 and returns the first {@code n} bytes. */
    private static int[] asm(int n, String... lines) {
        byte[] image = Assembler.assemble(".org $8000\n" + String.join("\n", lines))
                .image(0x8000, 0x8000, 0);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = image[i] & 0xFF;
        }
        return out;
    }

    private static int[] bytes(int... b) {
        return b;
    }

    @Test
    void encodesEachAddressingMode() {
        assertArrayEquals(bytes(0xA9, 0x10), asm(2, "lda #$10"));
        assertArrayEquals(bytes(0xA5, 0x10), asm(2, "lda $10"));
        assertArrayEquals(bytes(0xB5, 0x10), asm(2, "LDA $10,X"));
        assertArrayEquals(bytes(0xB6, 0x10), asm(2, "ldx $10,y"));
        assertArrayEquals(bytes(0xAD, 0x34, 0x12), asm(3, "lda $1234"));
        assertArrayEquals(bytes(0xBD, 0x34, 0x12), asm(3, "lda $1234,x"));
        assertArrayEquals(bytes(0xB9, 0x34, 0x12), asm(3, "lda $1234, y"));
        // No zero page,Y form for LDA: absolute,Y even for a small address.
        assertArrayEquals(bytes(0xB9, 0x10, 0x00), asm(3, "lda $10,y"));
        assertArrayEquals(bytes(0xA1, 0x20), asm(2, "lda ($20,x)"));
        assertArrayEquals(bytes(0xB1, 0x20), asm(2, "lda ($20),y"));
        assertArrayEquals(bytes(0x81, 0x20), asm(2, "sta ($20,X)"));
        assertArrayEquals(bytes(0x6C, 0xFC, 0xFF), asm(3, "jmp ($FFFC)"));
        assertArrayEquals(bytes(0x0A, 0x4A, 0x2A, 0x6A), asm(4, "asl", "lsr a", "rol A", "ror"));
        assertArrayEquals(bytes(0xEA, 0x60, 0x40), asm(3, "nop", "rts", "rti"));
        assertArrayEquals(bytes(0x8E, 0x14, 0x40), asm(3, "stx $4014"));
        assertArrayEquals(bytes(0x96, 0x80), asm(2, "stx $80,y"));
        assertArrayEquals(bytes(0x2C, 0x02, 0x20), asm(3, "bit $2002"));
        assertArrayEquals(bytes(0xE0, 0xFF, 0xC0, 0x00), asm(4, "cpx #255", "cpy #%0"));
    }

    @Test
    void evaluatesExpressions() {
        assertArrayEquals(bytes(0xA9, 0x34, 0xA9, 0x12), asm(4, "V = $1234", "lda #<V", "lda #>V"));
        assertArrayEquals(bytes(0xA9, 0x41, 0xA9, 0xFF), asm(4, "lda #'A'", "lda #-1"));
        assertArrayEquals(bytes(0xA9, 14, 0xA9, 3), asm(4, "N = 4", "lda #N*3+2", "lda #N*3/4"));
        assertArrayEquals(bytes(0x4C, 0x00, 0x80), asm(3, "jmp *"));
        assertArrayEquals(bytes(0xB5, 0x13), asm(2, "base = $10", "lda base+3,x"));
    }

    @Test
    void emitsData() {
        assertArrayEquals(bytes('H', 'I', 0, 7, 0xFE), asm(5, ".byte \"HI\", 0, 7, -2"));
        assertArrayEquals(bytes(0x34, 0x12, 0x00, 0x80), asm(4, "start: .word $1234, start"));
        // A ';' inside a string is text, not a comment.
        assertArrayEquals(bytes(';', 1), asm(2, ".byte \";\", 1 ; comment"));
    }

    @Test
    void resolvesLabelsBackwardAndForward() {
        int[] code = asm(9,
                "loop:  dex",          // $8000
                "       bne loop",     // $8001: back 3 -> $FD
                "       beq done",     // $8003: forward 2 -> $02
                "       jmp loop",     // $8005
                "done:  rts");         // $8008
        assertArrayEquals(bytes(0xCA, 0xD0, 0xFD, 0xF0, 0x03, 0x4C, 0x00, 0x80, 0x60), code);
        Assembler.Program p = Assembler.assemble(".org $8000\nloop: dex\n bne loop\n beq done\n jmp loop\ndone: rts");
        assertEquals(0x8008, p.symbol("done"));
    }

    @Test
    void forwardReferencesTakeTheAbsoluteForm() {
        // 'var' is not known yet at the load, so the load is absolute even though var < $100;
        // pass 2 keeps the size chosen in pass 1 so the following label does not move.
        Assembler.Program p = Assembler.assemble(String.join("\n",
                ".org $8000", "lda var", "after: rts", "var = $10"));
        byte[] image = p.image(0x8000, 4, 0);
        assertArrayEquals(new byte[] {(byte) 0xAD, 0x10, 0x00, 0x60}, image);
        assertEquals(0x8003, p.symbol("after"));
        // A constant computed from a later label can be used before its line.
        Assembler.Program r = Assembler.assemble(String.join("\n",
                ".org $8000", "jmp target", "target = later + 1", "later: nop", "rts"));
        assertArrayEquals(new byte[] {0x4C, 0x04, (byte) 0x80, (byte) 0xEA, 0x60}, r.image(0x8000, 5, 0));
        Assembler.Program star = Assembler.assemble(String.join("\n",
                ".org $8000", "nop", "here = * + later - later", "later: .word here"));
        assertEquals(0x8001, star.symbol("here"));
        // Defined first, the same load is zero page.
        assertArrayEquals(bytes(0xA5, 0x10), asm(2, "var = $10", "lda var"));
        // RAM variables laid out with .res are known before use: zero page.
        Assembler.Program q = Assembler.assemble(String.join("\n",
                ".org $0000", "a_var: .res 2", "b_var: .res 1", ".org $8000", "inc b_var"));
        assertEquals(2, q.symbol("b_var"));
        assertArrayEquals(new byte[] {(byte) 0xE6, 0x02}, q.image(0x8000, 2, 0));
    }

    @Test
    void branchesOutOfRangeAreErrors() {
        String far = ".org $8000\nstart: bne target\n.byte " + "0,".repeat(127) + "0\ntarget: rts";
        AsmException e = assertThrows(AsmException.class, () -> Assembler.assemble(far));
        assertEquals(2, e.line());
        assertTrue(e.getMessage().contains("branch out of range (128 bytes"), e.getMessage());
        // One byte less is the longest forward branch.
        String edge = ".org $8000\nbne target\n.byte " + "0,".repeat(126) + "0\ntarget: rts";
        assertEquals(0x7F, Assembler.assemble(edge).image(0x8000, 0x200, 0)[1]);
        // The longest backward branch: -128.
        String back = ".org $8000\ntarget: .byte " + "0,".repeat(125) + "0\nbne target";
        assertEquals((byte) 0x80, Assembler.assemble(back).image(0x8000, 0x200, 0)[127]);
        String tooFarBack = ".org $8000\ntarget: .byte " + "0,".repeat(126) + "0\nbne target";
        assertThrows(AsmException.class, () -> Assembler.assemble(tooFarBack));
    }

    @Test
    void reportsErrorsWithTheirLine() {
        assertError(2, "undefined symbol 'nowhere'", "nop\njmp nowhere");
        assertError(1, "unknown instruction FOO", "foo #1");
        assertError(1, "STA has no immediate", "sta #1");
        assertError(1, "STX has no absolute,X", "stx $1234,x");
        assertError(3, "defined twice", "x1: nop\nnop\nx1: nop");
        assertError(1, "byte value out of range", "lda #256");
        assertError(1, "zero-page operand out of range", "lda ($1234),y");
        assertError(3, "overlapping output", ".byte 1\n.org $8000\n.byte 2");
        assertError(1, "unknown directive .FOO", ".foo 1");
    }

    private static void assertError(int line, String text, String source) {
        AsmException e = assertThrows(AsmException.class, () -> Assembler.assemble(".org $8000\n" + source));
        assertEquals(line + 1, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    @Test
    void imageRejectsOutputOutsideItsRange() {
        Assembler.Program p = Assembler.assemble(".org $7FFF\n.byte 1, 2");
        assertThrows(AsmException.class, () -> p.image(0x8000, 0x100, 0));
        assertArrayEquals(new byte[] {1, 2, (byte) 0xEE}, p.image(0x7FFF, 3, 0xEE));
    }

    /**
     * Every instruction of the table, assembled and disassembled by the CPU package's
     * disassembler, reads back as written: the opcode table agrees with the CPU's.
     */
    @Test
    void everyOpcodeRoundTripsThroughTheDisassembler() {
        TreeSet<Integer> seen = new TreeSet<>();
        for (String m : Assembler.mnemonics()) {
            for (int mode = 0; mode <= Assembler.REL; mode++) {
                int op = Assembler.opcode(m, mode);
                if (op < 0) {
                    continue;
                }
                assertTrue(seen.add(op), "opcode $" + Integer.toHexString(op) + " used twice");
                String operand = switch (mode) {
                    case Assembler.IMP -> (op & 0x0F) == 0x0A && op < 0x80 ? " A" : "";
                    case Assembler.IMM -> " #$12";
                    case Assembler.ZP -> " $12";
                    case Assembler.ZPX -> " $12,X";
                    case Assembler.ZPY -> " $12,Y";
                    case Assembler.ABS -> " $1234";
                    case Assembler.ABX -> " $1234,X";
                    case Assembler.ABY -> " $1234,Y";
                    case Assembler.IZX -> " ($12,X)";
                    case Assembler.IZY -> " ($12),Y";
                    case Assembler.IND -> " ($1234)";
                    default -> " $8010";
                };
                String line = m + operand;
                byte[] image = Assembler.assemble(".org $8000\n" + line).image(0x8000, 3, 0);
                assertEquals(op, image[0] & 0xFF, line);
                assertEquals(line, Disassembler.disassemble(0x8000, a -> image[a - 0x8000] & 0xFF), line);
            }
        }
        assertEquals(151, seen.size(), "the official 6502 instruction set has 151 opcodes");
    }
}
