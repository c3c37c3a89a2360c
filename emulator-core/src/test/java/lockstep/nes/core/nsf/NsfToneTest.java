package lockstep.nes.core.nsf;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * NSFs that play one steady tone on one chip, through the player: the pitch heard in the audio is
 * the one the chip's period gives by its NESdev formula (the 2A03 CPU clock is 1,789,773 Hz).
 */
class NsfToneTest {
    private static final double CPU = 1_789_773.0;
    private static final int RATE = 48_000;

    private static double heard(String init, int chips) throws Exception {
        byte[] nsf = TestNsf.of("init:\n" + init + "\n  rts\nplay:\n  rts\n", chips, 16639, 1);
        short[] audio = TestNsf.play(nsf, 0.5);
        assertTrue(TestNsf.swing(audio) > 500, "the tone is audible");
        return TestNsf.pitch(audio, sampleRate(nsf));
    }

    private static int sampleRate(byte[] nsf) throws Exception {
        return NsfPlayer.console(NsfFile.parse("test.nsf", nsf), 0, null).apu().audio().sampleRate();
    }

    private static void near(double expected, double actual) {
        assertEquals(expected, actual, expected * 0.01, "pitch");
    }

    @Test
    void apuPulse() throws Exception {
        // Pulse: f = CPU / (16 (P + 1)); P = 253.
        near(CPU / (16 * 254), heard("  lda #$BF\n  sta $4000\n  lda #253\n  sta $4002\n  lda #0\n  sta $4003", 0));
    }

    @Test
    void silentWithoutInit() throws Exception {
        byte[] nsf = TestNsf.of("init:\n  rts\nplay:\n  rts\n", 0, 16639, 1);
        assertTrue(TestNsf.swing(TestNsf.play(nsf, 0.3)) < 50);
    }

    @Test
    void vrc6Pulse() throws Exception {
        // VRC6 pulse: f = CPU / (16 (P + 1)); duty 7 is 8/16.
        near(CPU / (16 * 254), heard("  lda #$7F\n  sta $9000\n  lda #253\n  sta $9001\n  lda #$80\n  sta $9002",
                NsfFile.VRC6));
    }

    @Test
    void vrc6Sawtooth() throws Exception {
        // VRC6 sawtooth: f = CPU / (14 (P + 1)); P = 289.
        near(CPU / (14 * 290), heard("  lda #$20\n  sta $B000\n  lda #<289\n  sta $B001\n  lda #$81\n  sta $B002",
                NsfFile.VRC6));
    }

    @Test
    void vrc6WritesAreIgnoredWhenTheFileDoesNotAskForIt() throws Exception {
        byte[] nsf = TestNsf.of("init:\n  lda #$7F\n  sta $9000\n  lda #253\n  sta $9001\n  lda #$80\n  sta $9002\n"
                + "  rts\nplay:\n  rts\n", 0, 16639, 1);
        assertTrue(TestNsf.swing(TestNsf.play(nsf, 0.3)) < 50);
    }

    @Test
    void vrc7Sine() throws Exception {
        // VRC7 custom instrument: a sine carrier (modulator at total level 63, both at multiplier
        // 1), held at full level. NESdev "VRC7 audio": f = 49716 x F / 2^(19 - B); F = 289, B = 4.
        String init = String.join("\n",
                write7(0x00, 0x21), write7(0x01, 0x21), write7(0x02, 0x3F), write7(0x03, 0x00),
                write7(0x04, 0xF0), write7(0x05, 0xF0), write7(0x06, 0x0F), write7(0x07, 0x0F),
                write7(0x30, 0x00), write7(0x10, 289 & 0xFF), write7(0x20, 0x10 | (4 << 1) | (289 >> 8)));
        near(49716.0 * 289 / (1 << 15), heard(init, NsfFile.VRC7));
    }

    @Test
    void fdsWave() throws Exception {
        // FDS wave: the accumulator adds the pitch every 16 cycles and steps the 64-sample table
        // every 2^12, so f = CPU x P / 2^22; P = 1024. The tune runs from the disk system's RAM at
        // $6000 and keeps the pitch in that RAM at $9000 before reading it back.
        String src = String.join("\n",
                ".org $6000",
                "init:",
                "  lda #$80", "  sta $4089",               // wavetable writable
                "  ldx #0",
                "wave:",
                "  txa", "  and #$20", "  beq low", "  lda #63",
                "low:",
                "  sta $4040,x", "  inx", "  cpx #64", "  bne wave",
                "  lda #0", "  sta $4089",                 // master volume 2/2, table fixed
                "  lda #$A0", "  sta $4080",               // volume envelope off, gain 32
                "  lda #$80", "  sta $4087",               // modulator halted
                "  lda #<1024", "  sta $9000", "  lda #>1024", "  sta $9001",
                "  lda $9000", "  sta $4082", "  lda $9001", "  sta $4083",
                "  rts",
                "play:",
                "  rts",
                "");
        lockstep.nes.core.demo.Assembler.Program p = lockstep.nes.core.demo.Assembler.assemble(src);
        byte[] nsf = TestNsf.header(p.image(0x6000, p.size(), 0), 0x6000, p.symbol("init"), p.symbol("play"),
                NsfFile.FDS, 16639, 1, 1, new int[8]);
        short[] audio = TestNsf.play(nsf, 0.5);
        assertTrue(TestNsf.swing(audio) > 500, "the tone is audible");
        near(CPU * 1024 / (1 << 22), TestNsf.pitch(audio, sampleRate(nsf)));
    }

    @Test
    void fdsBankSwitchedCopiesABankIntoRam() throws Exception {
        // Bank-switched: a write of 1 to $5FF6 copies bank 1 (which holds the pitch, 1024) into
        // the RAM at $6000; the tune reads the pitch from there.
        String src = String.join("\n",
                ".org $8000",
                "init:",
                "  lda #1", "  sta $5FF6",
                "  lda #$80", "  sta $4089",
                "  ldx #0",
                "wave:",
                "  txa", "  and #$20", "  beq low", "  lda #63",
                "low:",
                "  sta $4040,x", "  inx", "  cpx #64", "  bne wave",
                "  lda #0", "  sta $4089",
                "  lda #$A0", "  sta $4080",
                "  lda #$80", "  sta $4087",
                "  lda $6000", "  sta $4082", "  lda $6001", "  sta $4083",
                "  rts",
                "play:",
                "  rts",
                "");
        lockstep.nes.core.demo.Assembler.Program p = lockstep.nes.core.demo.Assembler.assemble(src);
        byte[] program = new byte[0x1002];
        System.arraycopy(p.image(0x8000, p.size(), 0), 0, program, 0, p.size());
        program[0x1000] = 0;
        program[0x1001] = 4;
        byte[] nsf = TestNsf.header(program, 0x8000, p.symbol("init"), p.symbol("play"), NsfFile.FDS, 16639, 1, 1,
                new int[] {0, 1, 0, 0, 0, 0, 0, 0});
        short[] audio = TestNsf.play(nsf, 0.5);
        assertTrue(TestNsf.swing(audio) > 500, "the tone is audible");
        near(CPU * 1024 / (1 << 22), TestNsf.pitch(audio, sampleRate(nsf)));
    }

    @Test
    void fdsWritesAreIgnoredWhenTheFileDoesNotAskForIt() throws Exception {
        byte[] nsf = TestNsf.of("init:\n  lda #$80\n  sta $4089\n  ldx #31\nw:\n  lda #63\n  sta $4040,x\n"
                + "  dex\n  bpl w\n  lda #0\n  sta $4089\n  lda #$A0\n  sta $4080\n  lda #$80\n  sta $4087\n"
                + "  sta $4082\n  lda #4\n  sta $4083\n  rts\nplay:\n  rts\n", 0, 16639, 1);
        assertTrue(TestNsf.swing(TestNsf.play(nsf, 0.3)) < 50);
    }

    private static String write7(int reg, int value) {
        return "  lda #" + reg + "\n  sta $9010\n  ldy #8\nd" + reg + ":\n  dey\n  bne d" + reg
                + "\n  lda #" + value + "\n  sta $9030\n  ldy #40\ne" + reg + ":\n  dey\n  bne e" + reg;
    }

    @Test
    void mmc5Pulse() throws Exception {
        near(CPU / (16 * 254), heard("  lda #$01\n  sta $5015\n  lda #$BF\n  sta $5000\n  lda #253\n  sta $5002\n"
                + "  lda #0\n  sta $5003", NsfFile.MMC5));
    }

    @Test
    void namco163() throws Exception {
        // One channel (8), a 16-sample square wave: f = CPU x freq / (15 x 65536 x 1 x 16); freq = 3868.
        String init = String.join("\n",
                "  lda #$80", "  sta $F800",               // sound RAM from $00, auto-increment
                "  lda #$FF", "  sta $4800", "  sta $4800", "  sta $4800", "  sta $4800",
                "  lda #0", "  sta $4800", "  sta $4800", "  sta $4800", "  sta $4800",
                "  lda #$F8", "  sta $F800",               // channel 8's registers at $78
                "  lda #$1C", "  sta $4800",               // frequency low
                "  lda #0", "  sta $4800",                 // phase low
                "  lda #$0F", "  sta $4800",               // frequency middle
                "  lda #0", "  sta $4800",                 // phase middle
                "  lda #$F0", "  sta $4800",               // length 256 - $F0 = 16, frequency high 0
                "  lda #0", "  sta $4800",                 // phase high
                "  lda #0", "  sta $4800",                 // wave at sample 0
                "  lda #$0F", "  sta $4800");              // one channel, volume 15
        near(CPU * 3868 / (15.0 * 65536 * 16), heard(init, NsfFile.N163));
    }

    @Test
    void sunsoft5b() throws Exception {
        // 5B tone A: f = CPU / (32 TP); TP = 127.
        String init = String.join("\n",
                "  lda #0", "  sta $C000", "  lda #127", "  sta $E000",
                "  lda #1", "  sta $C000", "  lda #0", "  sta $E000",
                "  lda #7", "  sta $C000", "  lda #$3E", "  sta $E000",
                "  lda #8", "  sta $C000", "  lda #$0F", "  sta $E000");
        near(CPU / (32 * 127), heard(init, NsfFile.SUNSOFT_5B));
    }

    @Test
    void twoChipsAtOnceMix() throws Exception {
        // VRC6 pulse and 5B both sounding: the mix is louder than either alone.
        String vrc6 = "  lda #$7F\n  sta $9000\n  lda #253\n  sta $9001\n  lda #$80\n  sta $9002";
        String sb = String.join("\n", "  lda #0", "  sta $C000", "  lda #127", "  sta $E000",
                "  lda #7", "  sta $C000", "  lda #$3E", "  sta $E000", "  lda #8", "  sta $C000", "  lda #$0F", "  sta $E000");
        int both = TestNsf.swing(TestNsf.play(TestNsf.of("init:\n" + vrc6 + "\n" + sb + "\n  rts\nplay:\n  rts\n",
                NsfFile.VRC6 | NsfFile.SUNSOFT_5B, 16639, 1), 0.3));
        int one = TestNsf.swing(TestNsf.play(TestNsf.of("init:\n" + vrc6 + "\n  rts\nplay:\n  rts\n",
                NsfFile.VRC6 | NsfFile.SUNSOFT_5B, 16639, 1), 0.3));
        assertTrue(both > one, both + " vs " + one);
    }
}
