package lockstep.nes.core.nsf;

import static org.junit.jupiter.api.Assertions.*;

import lockstep.nes.core.Console;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.Region;
import org.junit.jupiter.api.Test;

/** The player: init's arguments, play's rate, bank switching, and an NSF engine's state. */
class NsfPlayerTest {
    private static Console console(byte[] nsf, int song, Region region) throws Exception {
        return NsfPlayer.console(NsfFile.parse("test.nsf", nsf), song, region);
    }

    private static void seconds(Console c, double s) {
        long end = (long) (s * 1_789_773);
        while (c.cycles() < end) {
            c.runFrame();
        }
    }

    @Test
    void initGetsTheSongAndTheRegion() throws Exception {
        byte[] nsf = TestNsf.of("init:\n  sta $10\n  stx $11\n  rts\nplay:\n  rts\n", 0, 16639, 5);
        Console ntsc = console(nsf, 3, null);
        seconds(ntsc, 0.05);
        assertEquals(3, ntsc.ram().read(0x10));
        assertEquals(0, ntsc.ram().read(0x11));
        Console pal = console(nsf, 4, Region.PAL);
        seconds(pal, 0.05);
        assertEquals(4, pal.ram().read(0x10));
        assertEquals(1, pal.ram().read(0x11));
    }

    @Test
    void playRunsAtTheFilesOwnRate() throws Exception {
        // 10,000 us: 100 calls a second.
        byte[] nsf = TestNsf.of("init:\n  rts\nplay:\n  inc $20\n  bne done\n  inc $21\ndone:\n  rts\n", 0, 10000, 1);
        Console c = console(nsf, 0, null);
        seconds(c, 2.0);
        int calls = c.ram().read(0x20) | c.ram().read(0x21) << 8;
        // The timer starts after init (a few thousand cycles in): 199 or 200 calls in 2 s.
        assertTrue(calls >= 199 && calls <= 200, "calls " + calls);

        byte[] ntscRate = TestNsf.of("init:\n  rts\nplay:\n  inc $20\n  rts\n", 0, 16639, 1);
        Console n = console(ntscRate, 0, null);
        seconds(n, 1.0);
        assertEquals(60, n.ram().read(0x20), 1);
    }

    @Test
    void bankSwitchingMapsFourKibBanks() throws Exception {
        // 12 KiB of program in three banks, each starting with its number; the initial banks put
        // bank 2 at $8000 and bank 0 at $F000 (where init lives, at $F010); init maps bank 1 at
        // $9000 through $5FF9 and copies the first byte seen at $8000 and $9000.
        byte[] program = new byte[0x3000];
        for (int b = 0; b < 3; b++) {
            program[b * 0x1000] = (byte) (0xB0 + b);
        }
        byte[] code = lockstep.nes.core.demo.Assembler.assemble(String.join("\n",
                ".org $F010",
                "init:",
                "  lda #1",
                "  sta $5FF9",
                "  lda $8000",
                "  sta $10",
                "  lda $9000",
                "  sta $11",
                "  rts",
                "play:",
                "  rts",
                "")).image(0xF010, 32, 0);
        System.arraycopy(code, 0, program, 0x10, code.length);
        int[] banks = {2, 0, 0, 0, 0, 0, 0, 0};
        banks[7] = 0;
        byte[] nsf = TestNsf.header(program, 0x8000, 0xF010, 0xF020, 0, 16639, 1, 1, banks);
        NsfFile f = NsfFile.parse("banks.nsf", nsf);
        assertTrue(f.bankSwitched());
        Console c = NsfPlayer.console(f, 0, null);
        seconds(c, 0.05);
        assertEquals(0xB2, c.ram().read(0x10));
        assertEquals(0xB1, c.ram().read(0x11));
    }

    @Test
    void aDiskSystemTuneSwitchesBanksIntoItsRamByNesdevsRule() throws Exception {
        // NESdev "NSF", FDS: $6000-$DFFF is RAM, $5FF6/$5FF7 load banks into $6000/$7000 (which
        // start with the header's $E000 and $F000 banks), $5FF8-$5FFD into $8000-$D000, and
        // $5FFE/$5FFF switch $E000/$F000, which stay ROM. Four banks, each starting with its
        // number; the header puts 1, 2, 0, 0, 0, 0 at $8000-$D000, bank 2 at $E000 and 3 at $F000.
        byte[] program = new byte[0x4000];
        for (int b = 0; b < 4; b++) {
            program[b * 0x1000] = (byte) (0xB0 + b);
        }
        lockstep.nes.core.demo.Assembler.Program asm = lockstep.nes.core.demo.Assembler.assemble(String.join("\n",
                ".org $F010",
                "init:",
                "  lda $6000", "  sta $10", // 2: the header's $E000 bank
                "  lda $7000", "  sta $11", // 3: the header's $F000 bank
                "  lda $8000", "  sta $12", // 1
                "  lda #1", "  sta $5FF7",
                "  lda $7000", "  sta $13", // 1: $5FF7 loaded bank 1 at $7000
                "  lda #$5A", "  sta $D123", "  lda $D123", "  sta $14", // RAM up to $DFFF
                "  lda #$77", "  sta $8001", "  lda $8001", "  sta $15", // and over the program
                "  lda #3", "  sta $5FFA",
                "  lda $A000", "  sta $16", // 3: $5FFA loaded bank 3 at $A000
                "  lda #$66", "  sta $E001", "  lda $E001", "  sta $17", // $E000 is ROM: still 0
                "  lda #0", "  sta $5FFE",
                "  lda $E000", "  sta $18", // 0: $5FFE switched $E000
                "  rts",
                "play:",
                "  rts",
                ""));
        byte[] code = asm.image(0xF010, asm.size(), 0);
        System.arraycopy(code, 0, program, 0x3010, code.length);
        int[] banks = {1, 2, 0, 0, 0, 0, 2, 3};
        byte[] nsf = TestNsf.header(program, 0x8000, 0xF010, asm.symbol("play"), NsfFile.FDS, 16639, 1, 1, banks);
        NsfFile f = NsfFile.parse("fds-banks.nsf", nsf);
        assertTrue(f.bankSwitched());
        Console c = NsfPlayer.console(f, 0, null);
        seconds(c, 0.05);
        assertEquals(0xB2, c.ram().read(0x10), "$6000 starts with the $E000 bank");
        assertEquals(0xB3, c.ram().read(0x11), "$7000 starts with the $F000 bank");
        assertEquals(0xB1, c.ram().read(0x12));
        assertEquals(0xB1, c.ram().read(0x13), "$5FF7 loads $7000");
        assertEquals(0x5A, c.ram().read(0x14), "$D000-$DFFF is RAM");
        assertEquals(0x77, c.ram().read(0x15), "$8000 is RAM");
        assertEquals(0xB3, c.ram().read(0x16), "$5FFA loads $A000");
        assertEquals(0x00, c.ram().read(0x17), "$E000 is ROM");
        assertEquals(0xB0, c.ram().read(0x18), "$5FFE switches $E000");
    }

    @Test
    void anNsfEngineSnapshotsAndResumesExactly() throws Exception {
        // Every chip but the FDS at once, each sounding: the board's whole state round-trips.
        String init = String.join("\n",
                "  lda #$7F", "  sta $9000", "  lda #200", "  sta $9001", "  lda #$80", "  sta $9002",
                "  lda #$20", "  sta $9010", "  lda #$1A", "  sta $9030",
                "  lda #$01", "  sta $5015", "  lda #$BF", "  sta $5000", "  lda #90", "  sta $5002", "  lda #0", "  sta $5003",
                "  lda #$7F", "  sta $F800", "  lda #$7F", "  sta $4800",
                "  lda #8", "  sta $C000", "  lda #$0F", "  sta $E000",
                "  lda #3", "  sta $5205", "  lda #7", "  sta $5206", "  lda #$55", "  sta $5C10");
        byte[] nsf = TestNsf.of("init:\n" + init + "\n  rts\nplay:\n  inc $20\n  lda $5205\n  sta $21\n  rts\n",
                NsfFile.VRC6 | NsfFile.VRC7 | NsfFile.MMC5 | NsfFile.N163 | NsfFile.SUNSOFT_5B, 16639, 1);
        Console a = console(nsf, 0, null);
        seconds(a, 0.2);
        byte[] saved = new Snapshots(a).save();
        Console b = console(nsf, 0, null);
        new Snapshots(b).load(saved);
        for (int i = 0; i < 10; i++) {
            a.runFrame();
            b.runFrame();
        }
        assertEquals(new Snapshots(a).stateHash(), new Snapshots(b).stateHash());
        assertEquals(21, a.ram().read(0x21), "the MMC5 multiplier answers");
        assertEquals(0x55, a.peek(0x5C10), "MMC5 ExRAM is RAM");
    }
}
