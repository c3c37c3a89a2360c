package lockstep.nes.core.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;

/** Runs the demo ROM in a Console and checks that it does what it claims. */
class DemoRomTest {
    private static final int FRAME = DemoRom.symbol("frame");
    private static final int PLAYER_X = DemoRom.symbol("player_x");
    private static final int PLAYER_Y = DemoRom.symbol("player_y");
    private static final int PLAYER_PAL = DemoRom.symbol("player_pal");
    private static final int BACKDROP = DemoRom.symbol("backdrop");
    private static final int BALL_X = DemoRom.symbol("ball_x");
    private static final int OAM = 0x0200;

    private static Console boot() throws Exception {
        return Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
    }

    /** Runs frames until the program's frame counter has started (NMI running). */
    private static void runUntilNmiRuns(Console c) {
        for (int i = 0; i < 10 && c.peek(FRAME) == 0; i++) {
            c.runFrame();
        }
        assertNotEquals(0, c.peek(FRAME), "the NMI handler never ran");
    }

    @Test
    void isAnNromImageWithCode() throws Exception {
        byte[] rom = DemoRom.bytes();
        Cartridge cart = Cartridge.parse(DemoRom.NAME, rom);
        assertEquals(0, cart.mapperNumber());
        assertEquals(0x4000, cart.prg().length);
        assertEquals(0x2000, cart.chr().length);
        assertEquals(Mirroring.HORIZONTAL, cart.mirroring());
        assertEquals("lockstep-demo.nes", DemoRom.NAME);
        // The reset vector points at the reset routine in the mirrored 16 KiB.
        int reset = (cart.prg()[0x3FFC] & 0xFF) | (cart.prg()[0x3FFD] & 0xFF) << 8;
        assertEquals(DemoRom.symbol("reset"), reset);
        // Cached but handed out as copies.
        rom[100] ^= 1;
        assertNotEquals(rom[100], DemoRom.bytes()[100]);
        assertArrayEquals(DemoRom.bytes(), DemoRom.bytes());
        assertEquals(DemoRom.NAME, DemoRom.cartridge().name());
        assertArrayEquals(cart.prg(), DemoRom.cartridge().prg());
    }

    @Test
    void runsHundredsOfFramesWithAnNmiEveryFrame() throws Exception {
        Console c = boot();
        runUntilNmiRuns(c);
        int last = c.peek(FRAME);
        for (int f = 0; f < 200; f++) {
            c.runFrame();
            assertFalse(c.cpu().jammed(), "CPU jammed at frame " + c.frame());
            int now = c.peek(FRAME);
            assertEquals((last + 1) & 0xFF, now, "frame counter must advance by one per frame");
            last = now;
        }
        // The CPU idles in the main loop between NMIs; the balls moved.
        int pc = c.cpu().pc();
        assertTrue(pc >= 0xC000, "PC in ROM: " + Integer.toHexString(pc));
    }

    @Test
    void ballsMoveAndStayInsideTheField() throws Exception {
        Console c = boot();
        runUntilNmiRuns(c);
        int[] before = new int[8];
        for (int i = 0; i < 8; i++) {
            before[i] = c.peek(BALL_X + i);
        }
        for (int f = 0; f < 300; f++) {     // every ball reaches a wall in this time
            c.runFrame();
            for (int i = 0; i < 8; i++) {
                int x = c.peek(BALL_X + i);
                int y = c.peek(BALL_X + 8 + i);
                assertTrue(x >= 5 && x <= 243, "ball " + i + " x=" + x);
                assertTrue(y >= 5 && y <= 219, "ball " + i + " y=" + y);
            }
        }
        int moved = 0;
        for (int i = 0; i < 8; i++) {
            if (c.peek(BALL_X + i) != before[i]) {
                moved++;
            }
            assertEquals(c.peek(BALL_X + i), c.peek(OAM + 16 + 4 * i + 3), "ball " + i + " OAM X");
        }
        assertTrue(moved >= 6, "balls moved: " + moved);
    }

    @Test
    void dpadMovesThePlayerSprite() throws Exception {
        Console c = boot();
        runUntilNmiRuns(c);
        int x0 = c.peek(PLAYER_X);
        int y0 = c.peek(PLAYER_Y);
        c.setButtons(0, Controllers.RIGHT);
        for (int f = 0; f < 10; f++) {
            c.runFrame();
        }
        int x1 = c.peek(PLAYER_X);
        assertEquals(x0 + 20, x1, "RIGHT moves 2 pixels per frame");
        assertEquals(y0, c.peek(PLAYER_Y));
        assertEquals(x1, c.peek(OAM + 3), "the player's OAM entry follows");
        assertEquals(x1 + 8, c.peek(OAM + 7));

        c.setButtons(0, Controllers.UP | Controllers.LEFT);
        for (int f = 0; f < 5; f++) {
            c.runFrame();
        }
        assertEquals(x1 - 10, c.peek(PLAYER_X));
        assertEquals(y0 - 10, c.peek(PLAYER_Y));
        assertEquals(y0 - 10, c.peek(OAM));

        // Held against the edge, the player stops at the field's border.
        c.setButtons(0, Controllers.DOWN);
        for (int f = 0; f < 200; f++) {
            c.runFrame();
        }
        assertEquals(DemoRom.symbol("PLAYER_YMAX"), c.peek(PLAYER_Y));
        c.setButtons(0, 0);
        c.runFrame();
        assertEquals(DemoRom.symbol("PLAYER_YMAX"), c.peek(PLAYER_Y));
    }

    @Test
    void starsCircleThePlayer() throws Exception {
        Console c = boot();
        runUntilNmiRuns(c);
        int[] firstX = new int[4];
        for (int f = 0; f < 64; f++) {
            c.runFrame();
            int cx = c.peek(PLAYER_X) + 4;
            int cy = c.peek(PLAYER_Y) + 4;
            for (int k = 0; k < 4; k++) {
                int e = OAM + 4 * (12 + k);
                assertEquals(DemoTiles.STAR, c.peek(e + 1));
                int dx = c.peek(e + 3) - cx;
                int dy = c.peek(e) - cy;
                int r2 = dx * dx + dy * dy;
                assertTrue(r2 >= 11 * 11 && r2 <= 13 * 13, "star " + k + " at distance^2 " + r2);
                if (f == 0) {
                    firstX[k] = dx;
                } else if (f == 8) {
                    assertNotEquals(firstX[k], dx, "star " + k + " moves");
                }
            }
        }
    }

    @Test
    void aAndBChangeColoursOncePerPress() throws Exception {
        Console c = boot();
        runUntilNmiRuns(c);
        assertEquals(0, c.peek(PLAYER_PAL));
        c.setButtons(0, Controllers.A);
        for (int f = 0; f < 5; f++) {
            c.runFrame();       // held: counts once
        }
        assertEquals(1, c.peek(PLAYER_PAL));
        assertEquals(1, c.peek(OAM + 2) & 3, "player sprite attribute uses the new palette");
        c.setButtons(0, 0);
        c.runFrame();
        c.setButtons(0, Controllers.A | Controllers.B);
        c.runFrame();
        c.runFrame();
        assertEquals(2, c.peek(PLAYER_PAL));
        assertEquals(1, c.peek(BACKDROP));
    }

    @Test
    void writesTheApuPulseChannels() throws Exception {
        Console c = boot();
        int[] writes = new int[0x18];
        long end = 0;
        for (int f = 0; f < 80; f++) {
            if (f == 40) {
                c.setButtons(0, Controllers.A);
            }
            long frame = c.frame();
            while (c.frame() == frame) {
                if (c.cpu().isWrite()) {
                    int a = c.cpu().address();
                    if (a >= 0x4000 && a < 0x4018) {
                        writes[a - 0x4000]++;
                    }
                }
                c.runCycle();
                end++;
            }
        }
        assertTrue(end > 0);
        assertTrue(writes[0x15] >= 1, "$4015 channel enable written");
        // Melody on pulse 1: a note every 8 frames.
        assertTrue(writes[0x00] >= 8, "$4000 writes: " + writes[0x00]);
        assertTrue(writes[0x02] >= 8 && writes[0x03] >= 8, "pulse 1 timer writes");
        // The A press plays a blip on pulse 2.
        assertTrue(writes[0x04] >= 1 && writes[0x06] >= 1 && writes[0x07] >= 1, "pulse 2 blip");
        // The bass line on the triangle.
        assertTrue(writes[0x08] >= 1 && writes[0x0B] >= 1, "triangle writes");
        // A hi-hat on the noise channel every other step.
        assertTrue(writes[0x0C] >= 4 && writes[0x0E] >= 4 && writes[0x0F] >= 4, "noise writes");
        // OAM DMA every frame.
        assertTrue(writes[0x14] >= 70, "$4014 writes: " + writes[0x14]);
    }

    @Test
    void restartsOnSoftReset() throws Exception {
        Console c = boot();
        c.setButtons(0, Controllers.RIGHT);
        for (int f = 0; f < 100; f++) {
            c.runFrame();
        }
        assertTrue(c.peek(FRAME) > 80);
        assertNotEquals(120, c.peek(PLAYER_X));
        c.setButtons(0, 0);
        c.reset();
        for (int f = 0; f < 10; f++) {
            c.runFrame();
        }
        int frame = c.peek(FRAME);
        assertTrue(frame > 0 && frame < 10, "counter restarted: " + frame);
        assertEquals(120, c.peek(PLAYER_X), "player back at the start");
        c.runFrame();
        assertEquals(frame + 1, c.peek(FRAME));
        assertFalse(c.cpu().jammed());
    }

    /** The build (exec-maven-plugin, process-classes) leaves the same image in target/. */
    @Test
    void theBuildWritesTheRomToTarget() throws Exception {
        String basedir = System.getProperty("basedir");
        org.junit.jupiter.api.Assumptions.assumeTrue(basedir != null,
                "not run by Maven: target/" + DemoRom.NAME + " is written by the Maven build");
        java.nio.file.Path file = java.nio.file.Path.of(basedir, "target", DemoRom.NAME);
        assertTrue(java.nio.file.Files.isRegularFile(file), file + " missing");
        assertArrayEquals(DemoRom.bytes(), java.nio.file.Files.readAllBytes(file));
    }

    @Test
    void isSmall() {
        // NROM-128: 16 KiB of PRG, of which the program uses a small part.
        Assembler.Program p = Assembler.assemble(DemoRom.source());
        assertTrue(p.size() < 2048, "code and data: " + p.size() + " bytes");
    }

    @Test
    void isDeterministic() throws Exception {
        Console a = boot();
        Console b = boot();
        for (int f = 0; f < 120; f++) {
            int buttons = (f / 20) % 2 == 0 ? Controllers.RIGHT | Controllers.A : Controllers.DOWN;
            a.setButtons(0, buttons);
            b.setButtons(0, buttons);
            a.runFrame();
            b.runFrame();
        }
        assertEquals(a.cycles(), b.cycles());
        for (int i = 0; i < 0x800; i++) {
            assertEquals(a.peek(i), b.peek(i), "RAM $" + Integer.toHexString(i));
        }
    }

    @Test
    void periodsMatchTheNoteFrequencies() {
        // A4 = 440 Hz: 1789773 / (16 * 440) - 1 = 253.2 -> 253.
        assertEquals(253, DemoRom.period(DemoRom.symbol("A4")));
        // C3 = 130.81 Hz -> 854.
        assertEquals(854, DemoRom.period(DemoRom.symbol("C3")));
        assertEquals(1, DemoRom.symbol("C3"));
    }
}
