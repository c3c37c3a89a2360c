package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PpuTest {
    private FakeBus bus;
    private Ppu ppu;

    @BeforeEach
    void setUp() {
        bus = new FakeBus();
        ppu = new Ppu(bus);
        ppu.power();
    }

    /** Steps until the PPU has just executed (scanline, dot). */
    private void runTo(int scanline, int dot) {
        int guard = 0;
        do {
            ppu.step();
            if (++guard > 200_000) {
                throw new AssertionError("never reached " + scanline + "," + dot);
            }
        } while (ppu.scanline() != scanline || ppu.dot() != dot);
    }

    /** Runs to the pre-render line, which ends the warm-up after a reset. */
    private void warmUp() {
        runTo(261, 2);
    }

    /** Writes $2006 twice and waits the 3 dots v takes to follow. */
    private void setAddress(int addr) {
        ppu.writeRegister(6, addr >> 8);
        ppu.writeRegister(6, addr & 0xFF);
        ppu.step();
        ppu.step();
        ppu.step();
    }

    @Test
    void vblankFlagAndNmiOnTheirDots() {
        ppu.writeRegister(0, 0x80);
        runTo(241, 0);
        assertEquals(0, ppu.peekRegister(2) & 0x80);
        assertFalse(ppu.nmiOutput());
        ppu.step();
        assertEquals(0x80, ppu.peekRegister(2) & 0x80);
        assertTrue(ppu.nmiOutput());
        runTo(261, 0);
        assertTrue(ppu.nmiOutput());
        ppu.step();
        assertEquals(0, ppu.peekRegister(2) & 0x80);
        assertFalse(ppu.nmiOutput());
    }

    @Test
    void frameCounterIncrementsWhenScanline241Begins() {
        runTo(240, 340);
        assertEquals(0, ppu.frameCount());
        ppu.step();
        assertEquals(241, ppu.scanline());
        assertEquals(1, ppu.frameCount());
    }

    @Test
    void readingStatusClearsVblankAndToggle() {
        warmUp();
        runTo(241, 5);
        ppu.writeRegister(5, 0x10);
        assertTrue(ppu.writeToggle());
        assertEquals(0x80, ppu.readRegister(2) & 0x80);
        assertFalse(ppu.writeToggle());
        assertEquals(0, ppu.readRegister(2) & 0x80);
    }

    @Test
    void statusReadOneDotBeforeVblankSuppressesIt() {
        warmUp();
        ppu.writeRegister(0, 0x80);
        runTo(241, 0);
        assertEquals(0, ppu.readRegister(2) & 0x80);
        ppu.step();
        assertEquals(0, ppu.peekRegister(2) & 0x80);
        assertFalse(ppu.nmiOutput());
    }

    @Test
    void enablingNmiDuringVblankRaisesNmiAtOnce() {
        warmUp();
        runTo(250, 10);
        assertFalse(ppu.nmiOutput());
        ppu.writeRegister(0, 0x80);
        assertTrue(ppu.nmiOutput());
        ppu.writeRegister(0, 0x00);
        assertFalse(ppu.nmiOutput());
    }

    @Test
    void powerOnAcceptsWritesAtOnce() {
        ppu.writeRegister(0, 0x03);
        ppu.writeRegister(5, 0x7D);
        assertEquals(0x0C0F, ppu.tempAddress());
        assertEquals(5, ppu.fineX());
        assertTrue(ppu.writeToggle());
    }

    @Test
    void resetIgnoresCtrlMaskScrollAddressButNotOamUntilPreRender() {
        runTo(100, 0);
        ppu.reset();
        ppu.writeRegister(0, 0x04);
        ppu.writeRegister(1, 0x1E);
        ppu.writeRegister(5, 0x7D);
        ppu.writeRegister(6, 0x21);
        ppu.writeRegister(3, 0x10);
        ppu.writeRegister(4, 0x55);
        assertEquals(0, ppu.tempAddress());
        assertEquals(0, ppu.fineX());
        assertFalse(ppu.writeToggle());
        assertEquals(0x55, ppu.oam().read(0x10));
        runTo(261, 1);
        ppu.writeRegister(5, 0x7D);
        assertEquals(5, ppu.fineX());
    }

    @Test
    void loopyScrollRegisters() {
        warmUp();
        runTo(241, 10);
        ppu.writeRegister(0, 0x03);
        assertEquals(0x0C00, ppu.tempAddress());
        ppu.writeRegister(5, 0x7D); // coarse X 15, fine X 5
        assertEquals(0x0C0F, ppu.tempAddress());
        assertEquals(5, ppu.fineX());
        ppu.writeRegister(5, 0x5E); // coarse Y 11, fine Y 6
        assertEquals(0x6D6F, ppu.tempAddress());
        ppu.writeRegister(6, 0x3D);
        assertEquals(0x3D6F, ppu.tempAddress());
        ppu.writeRegister(6, 0xF0);
        assertEquals(0x3DF0, ppu.tempAddress());
        ppu.step();
        ppu.step();
        assertEquals(0x0000, ppu.vramAddress()); // v follows 3 dots after the write
        ppu.step();
        assertEquals(0x3DF0, ppu.vramAddress());
        assertEquals(0x3DF0, bus.lastAddress); // the cartridge sees the new address
    }

    @Test
    void dataReadsGoThroughTheBufferAndIncrement() {
        warmUp();
        runTo(241, 10);
        bus.mem[0x2000] = 0x11;
        bus.mem[0x2001] = 0x22;
        bus.mem[0x2020] = 0x33;
        setAddress(0x2000);
        read2007(); // primes the buffer
        assertEquals(0x11, read2007());
        assertEquals(0x2002, ppu.vramAddress());
        ppu.writeRegister(0, 0x04);
        setAddress(0x2000);
        assertEquals(0x22, read2007()); // the stale buffer ($2001); fetches $2000
        assertEquals(0x2020, ppu.vramAddress());
        assertEquals(0x11, read2007());
        assertEquals(0x33, read2007());
    }

    @Test
    void paletteReadsAreImmediateAndMirrored() {
        warmUp();
        runTo(241, 10);
        bus.mem[0x2F10] = 0x77;
        setAddress(0x3F10);
        ppu.writeRegister(7, 0x2A);
        setAddress(0x3F00);
        assertEquals(0x2A, read2007() & 0x3F);
        setAddress(0x3F30); // $3F20-$3FFF mirror $3F00-$3F1F
        assertEquals(0x2A, read2007() & 0x3F);
        setAddress(0x3F10);
        read2007();
        // The buffer was filled from the nametable "under" the palette.
        setAddress(0x2000);
        assertEquals(0x77, read2007());
        // $3F14 mirrors $3F04; $3F15 is its own entry.
        setAddress(0x3F14);
        ppu.writeRegister(7, 0x06);
        assertEquals(0x06, ppu.palette().read(4));
        setAddress(0x3F05);
        ppu.writeRegister(7, 0x07);
        setAddress(0x3F15);
        ppu.writeRegister(7, 0x08);
        assertEquals(0x07, ppu.palette().read(5));
        assertEquals(0x08, ppu.palette().read(0x15));
    }

    /** A $2007 read 4 CPU cycles (12 dots) after the previous access, as with back-to-back LDAs. */
    private int read2007() {
        for (int i = 0; i < 12; i++) {
            ppu.step();
        }
        return ppu.readRegister(7);
    }

    @Test
    void secondDataReadWithinSixDotsIsIgnored() {
        warmUp();
        runTo(241, 10);
        bus.mem[0x2000] = 0x11;
        bus.mem[0x2001] = 0x22;
        setAddress(0x2000);
        read2007();
        int v = ppu.vramAddress();
        ppu.step();
        ppu.readRegister(7); // a DMA re-read one dot later: ignored
        assertEquals(v, ppu.vramAddress(), "the ignored read does not increment v");
        assertEquals(0x11, read2007(), "nor does it advance the read buffer");
    }

    @Test
    void oamAttributeBitsTwoToFourReadAsZero() {
        ppu.writeRegister(3, 0x02);
        ppu.writeRegister(4, 0xFF);
        ppu.writeRegister(3, 0x02);
        assertEquals(0xE3, ppu.readRegister(4));
    }

    @Test
    void openBusHoldsWrittenValueThenDecays() {
        ppu.writeRegister(3, 0x5A);
        assertEquals(0x5A, ppu.readRegister(0));
        // $2002 drives bits 7-5 only.
        assertEquals(0x1A, ppu.readRegister(2) & 0x1F);
        for (int f = 0; f < OpenBus.DECAY_FRAMES + 2; f++) {
            long n = ppu.frameCount();
            while (ppu.frameCount() == n) {
                ppu.step();
            }
        }
        assertEquals(0, ppu.readRegister(0));
    }

    private int framesDots(int frames) {
        int dots = 0;
        for (int f = 0; f < frames; f++) {
            long n = ppu.frameCount();
            while (ppu.frameCount() == n) {
                ppu.step();
                dots++;
            }
        }
        return dots;
    }

    @Test
    void oddFramesAreOneDotShorterOnlyWhenRendering() {
        warmUp();
        framesDots(1);
        assertEquals(2 * 341 * 262, framesDots(2));
        ppu.writeRegister(1, 0x08);
        framesDots(1);
        assertEquals(2 * 341 * 262 - 1, framesDots(2));
    }

    /** Tile 1 = solid colour 3 (both planes set), on a 4-sprite-per-line fake cartridge. */
    private void setUpSolidTile() {
        for (int i = 0; i < 16; i++) {
            bus.mem[0x0010 + i] = 0xFF;
        }
    }

    @Test
    void rendersBackgroundTilesWithAttributesAndBackdrop() {
        setUpSolidTile();
        bus.mem[0x2000] = 1; // tile (0,0) solid
        bus.mem[0x23C0] = 0x01; // top-left quadrant palette 1
        warmUp();
        runTo(241, 10);
        setAddress(0x3F00);
        ppu.writeRegister(7, 0x0F);
        setAddress(0x3F07);
        ppu.writeRegister(7, 0x16);
        setAddress(0x0000);
        ppu.writeRegister(1, 0x0A); // background on, left column shown
        framesDots(2);
        short[] f = ppu.frame();
        assertEquals(0x16, f[0]);
        assertEquals(0x16, f[7 * 256 + 7]);
        assertEquals(0x0F, f[8]);
        assertEquals(0x0F, f[8 * 256]);
    }

    @Test
    void fineXScrollShiftsThePicture() {
        setUpSolidTile();
        bus.mem[0x2001] = 1; // tile at x 8..15
        warmUp();
        runTo(241, 10);
        setAddress(0x3F03);
        ppu.writeRegister(7, 0x30);
        setAddress(0);
        ppu.writeRegister(5, 3); // fine X 3
        ppu.writeRegister(5, 0);
        ppu.writeRegister(1, 0x0A);
        framesDots(2);
        short[] f = ppu.frame();
        assertEquals(0x30, f[5]);
        assertEquals(0x30, f[12]);
        assertEquals(ppu.palette().read(0), f[4]);
        assertEquals(ppu.palette().read(0), f[13]);
    }

    @Test
    void leftColumnMaskHidesBackground() {
        setUpSolidTile();
        bus.mem[0x2000] = 1;
        warmUp();
        runTo(241, 10);
        setAddress(0x3F00);
        ppu.writeRegister(7, 0x0F);
        setAddress(0x3F03);
        ppu.writeRegister(7, 0x30);
        setAddress(0);
        ppu.writeRegister(1, 0x08); // background on, left 8 pixels hidden
        framesDots(2);
        assertEquals(0x0F, ppu.frame()[3]);
    }

    @Test
    void greyscaleAndEmphasisInOutput() {
        warmUp();
        runTo(241, 10);
        setAddress(0x3F00);
        ppu.writeRegister(7, 0x16);
        setAddress(0x0000);
        ppu.writeRegister(1, 0xA1); // greyscale, emphasis red+blue, rendering off
        framesDots(2);
        assertEquals(0x10 | (0x5 << 6), ppu.frame()[100]);
    }

    @Test
    void backdropComesFromVWhenRenderingIsOffAndVPointsAtPalette() {
        warmUp();
        runTo(241, 10);
        setAddress(0x3F05);
        ppu.writeRegister(7, 0x21);
        setAddress(0x3F05);
        framesDots(2);
        assertEquals(0x21, ppu.frame()[120 * 256 + 50]);
    }

    private void putSprite(int index, int y, int tile, int attr, int x) {
        ppu.writeRegister(3, index * 4);
        ppu.writeRegister(4, y);
        ppu.writeRegister(4, tile);
        ppu.writeRegister(4, attr);
        ppu.writeRegister(4, x);
    }

    @Test
    void spritesDrawWithPriorityAndSprite0Hit() {
        setUpSolidTile();
        bus.mem[0x2000 + 4 * 32 + 4] = 1; // background tile at (32..39, 32..39)
        warmUp();
        runTo(241, 10);
        setAddress(0x3F03);
        ppu.writeRegister(7, 0x30);
        setAddress(0x3F13);
        ppu.writeRegister(7, 0x16);
        setAddress(0x3F17);
        ppu.writeRegister(7, 0x2A);
        for (int i = 0; i < 64; i++) {
            putSprite(i, 0xF0, 0, 0, 0);
        }
        putSprite(0, 31, 1, 0x20, 36); // behind background, overlaps the tile: hit, hidden
        putSprite(1, 99, 1, 0x01, 100); // in front, palette 1
        ppu.writeRegister(3, 0);
        setAddress(0);
        ppu.writeRegister(1, 0x1E);
        framesDots(1);
        runTo(31, 300);
        assertEquals(0, ppu.peekRegister(2) & 0x40);
        runTo(32, 40);
        assertEquals(0x40, ppu.peekRegister(2) & 0x40);
        framesDots(1);
        short[] f = ppu.frame();
        assertEquals(0x30, f[32 * 256 + 36]); // background wins over a behind sprite
        assertEquals(0x16, f[32 * 256 + 41]); // sprite where background is transparent
        assertEquals(0x2A, f[100 * 256 + 100]);
        assertEquals(0x2A, f[107 * 256 + 107]);
        assertEquals(ppu.palette().read(0), f[108 * 256 + 100]);
        runTo(261, 2);
        assertEquals(0, ppu.peekRegister(2) & 0x40);
    }

    @Test
    void nineSpritesOnALineSetOverflowAndOnlyEightAreDrawn() {
        setUpSolidTile();
        warmUp();
        runTo(241, 10);
        for (int i = 0; i < 64; i++) {
            putSprite(i, 0xF0, 0, 0, 0);
        }
        for (int i = 0; i < 9; i++) {
            putSprite(i, 50, 1, 0, i * 16);
        }
        setAddress(0x3F13);
        ppu.writeRegister(7, 0x16);
        ppu.writeRegister(3, 0);
        setAddress(0);
        ppu.writeRegister(1, 0x18);
        framesDots(1);
        runTo(50, 0);
        assertEquals(0, ppu.peekRegister(2) & 0x20);
        runTo(50, 256);
        assertEquals(0x20, ppu.peekRegister(2) & 0x20);
        framesDots(1);
        short[] f = ppu.frame();
        assertEquals(0x16, f[55 * 256 + 7 * 16]);
        assertEquals(ppu.palette().read(0), f[55 * 256 + 8 * 16]);
    }

    @Test
    void eightSpritesDoNotSetOverflow() {
        warmUp();
        runTo(241, 10);
        for (int i = 0; i < 64; i++) {
            putSprite(i, 0xF0, 0, 0, 0);
        }
        for (int i = 0; i < 8; i++) {
            putSprite(i, 50, 1, 0, i * 16);
        }
        ppu.writeRegister(3, 0);
        ppu.writeRegister(1, 0x18);
        framesDots(2);
        runTo(200, 0);
        assertEquals(0, ppu.peekRegister(2) & 0x20);
    }

    @Test
    void oamDataReadsFFWhileSecondaryOamIsCleared() {
        warmUp();
        runTo(241, 10);
        ppu.writeRegister(3, 0);
        ppu.writeRegister(4, 0x12);
        ppu.writeRegister(1, 0x18);
        runTo(10, 30);
        assertEquals(0xFF, ppu.readRegister(4));
    }

    @Test
    void backgroundFetchesHitTheBusOnTheirDots() {
        warmUp();
        runTo(241, 10);
        ppu.writeRegister(0, 0x10); // background patterns at $1000
        ppu.writeRegister(1, 0x08);
        runTo(0, 0);
        bus.readCount = 0;
        ppu.step(); // dot 1: nametable
        assertEquals(0x2000 | (2 & 0), bus.reads[0] & 0xF000);
        ppu.step();
        ppu.step(); // dot 3: attribute
        assertEquals(0x23C0, bus.reads[1] & 0xFFC0);
        ppu.step();
        ppu.step(); // dot 5: pattern low
        assertEquals(0x1000, bus.reads[2] & 0xF000);
        ppu.step();
        ppu.step(); // dot 7: pattern high
        assertEquals(8, bus.reads[3] & 8);
        assertEquals(4, bus.readCount);
        runTo(0, 256);
        assertEquals(128, bus.readCount);
        runTo(0, 320);
        assertEquals(128 + 32, bus.readCount);
        runTo(0, 340);
        assertEquals(128 + 32 + 8 + 2, bus.readCount);
    }

    @Test
    void idleDotShowsTheNextPatternAddressOnVisibleLines() {
        warmUp();
        runTo(241, 10);
        ppu.writeRegister(0, 0x10); // background patterns at $1000
        ppu.writeRegister(1, 0x08);
        runTo(5, 340);
        bus.lastAddress = -1;
        ppu.step();
        assertEquals(0, ppu.dot());
        assertEquals(0x1000, bus.lastAddress & 0x1000); // A12 high at dot 0
        runTo(261, 340);
        int before = bus.lastAddress;
        runTo(0, 0);
        runTo(260, 340);
        bus.lastAddress = -1;
        ppu.step(); // pre-render dot 0 follows an idle line: nothing new on the bus
        assertEquals(-1, bus.lastAddress);
        assertTrue(before >= 0);
    }

    @Test
    void dataAccessDuringRenderingIncrementsCoarseXAndY() {
        warmUp();
        runTo(241, 10);
        ppu.writeRegister(1, 0x08);
        // The read serviced after dot 97: the data state machine reads, and steps v, on dot 102.
        runTo(10, 97);
        int before = ppu.vramAddress();
        ppu.readRegister(7);
        runTo(10, 101);
        assertEquals(before, ppu.vramAddress(), "v waits for the state machine's read");
        ppu.step();
        int after = ppu.vramAddress();
        assertEquals(((before & 0x1F) + 1) & 0x1F, after & 0x1F);
        assertEquals(((before >> 12) + 1) & 7, (after >> 12) & 7);
    }

    @Test
    void stateRoundTripsThroughTheVisitor() {
        warmUp();
        ppu.writeRegister(1, 0x1E);
        runTo(100, 123);
        java.util.List<Object> values = new java.util.ArrayList<>();
        ppu.state(new RecordingVisitor(values, null));
        Ppu other = new Ppu(new FakeBus());
        other.power();
        other.state(new RecordingVisitor(null, values));
        java.util.List<Object> again = new java.util.ArrayList<>();
        other.state(new RecordingVisitor(again, null));
        assertEquals(values.size(), again.size());
        for (int i = 0; i < values.size(); i++) {
            Object a = values.get(i);
            Object b = again.get(i);
            if (a instanceof byte[] x) {
                assertTrue(java.util.Arrays.equals(x, (byte[]) b));
            } else if (a instanceof int[] x) {
                assertTrue(java.util.Arrays.equals(x, (int[]) b));
            } else {
                assertEquals(a, b);
            }
        }
        assertEquals(100, other.scanline());
        assertEquals(123, other.dot());
    }

    /** Records values (writer) or replays them (reader). */
    private static final class RecordingVisitor implements lockstep.nes.state.StateVisitor {
        private final java.util.List<Object> out;
        private final java.util.List<Object> in;
        private int pos;

        RecordingVisitor(java.util.List<Object> out, java.util.List<Object> in) {
            this.out = out;
            this.in = in;
        }

        private Object io(Object value) {
            if (in != null) {
                return in.get(pos++);
            }
            out.add(value);
            return value;
        }

        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String name, boolean value) { return (Boolean) io(value); }
        @Override public int u8(String name, int value) { return (Integer) io(value); }
        @Override public int u16(String name, int value) { return (Integer) io(value); }
        @Override public int i32(String name, int value) { return (Integer) io(value); }
        @Override public long i64(String name, long value) { return (Long) io(value); }

        @Override
        public void bytes(String name, byte[] array) {
            if (in != null) {
                byte[] src = (byte[]) in.get(pos++);
                System.arraycopy(src, 0, array, 0, array.length);
            } else {
                out.add(array.clone());
            }
        }

        @Override
        public void ints(String name, int[] array) {
            if (in != null) {
                int[] src = (int[]) in.get(pos++);
                System.arraycopy(src, 0, array, 0, array.length);
            } else {
                out.add(array.clone());
            }
        }

        @Override
        public boolean isReader() {
            return in != null;
        }
    }
}
