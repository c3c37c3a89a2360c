package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For every registered mapper: random register writes, then a state save into a fresh board must
 * reproduce every CPU and PPU read, the IRQ line, and then stay in step as both keep running.
 */
class MapperStateTest {
    /** Saves values in visit order, or replays them. */
    static final class Tape implements StateVisitor {
        final List<Object> values = new ArrayList<>();
        final boolean reader;
        int pos;

        Tape(boolean reader) {
            this.reader = reader;
        }

        Tape replay() {
            Tape t = new Tape(true);
            t.values.addAll(values);
            return t;
        }

        private Object io(Object v) {
            if (reader) {
                return values.get(pos++);
            }
            values.add(v);
            return v;
        }

        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String name, boolean v) { return (Boolean) io(v); }
        @Override public int u8(String name, int v) { return (Integer) io(v); }
        @Override public int u16(String name, int v) { return (Integer) io(v); }
        @Override public int i32(String name, int v) { return (Integer) io(v); }
        @Override public long i64(String name, long v) { return (Long) io(v); }

        @Override
        public void bytes(String name, byte[] a) {
            byte[] v = (byte[]) io(a.clone());
            System.arraycopy(v, 0, a, 0, a.length);
        }

        @Override
        public void ints(String name, int[] a) {
            int[] v = (int[]) io(a.clone());
            System.arraycopy(v, 0, a, 0, a.length);
        }

        @Override public boolean isReader() { return reader; }
    }

    private static Cartridge cart(int mapper) {
        boolean chrRam = mapper == 2 || mapper == 7 || mapper == 94 || mapper == 180 || mapper == 71 || mapper == 232
                || mapper == 13 || mapper == 93 || mapper == 28 || mapper == 30 || mapper == 73;
        return Cartridge.builder("s.nes", Roms.prg(512), chrRam ? new byte[0] : Roms.chr(256), mapper)
                .battery(true).prgRam(0, 8192).build();
    }

    private static void poke(Mapper m, Random r) {
        int addr = switch (r.nextInt(4)) {
            case 0 -> 0x4100 + r.nextInt(0x2000);
            case 1 -> 0x6000 + r.nextInt(0x2000);
            default -> 0x8000 + r.nextInt(0x8000);
        };
        m.cpuWrite(addr, r.nextInt(256));
        for (int i = r.nextInt(4); i >= 0; i--) {
            m.cpuCycle();
        }
        m.ppuRead(r.nextInt(0x3F00));
        if (r.nextInt(8) == 0) {
            m.ppuWrite(r.nextInt(0x3F00), r.nextInt(256));
        }
    }

    private static void assertSameView(Mapper a, Mapper b, String when) {
        for (int addr = 0x4020; addr <= 0xFFFF; addr += 0x3F) {
            assertEquals(a.cpuPeek(addr), b.cpuPeek(addr), when + ": CPU $" + Integer.toHexString(addr));
        }
        for (int addr = 0; addr < 0x3F00; addr += 0x1F) {
            assertEquals(a.ppuRead(addr), b.ppuRead(addr), when + ": PPU $" + Integer.toHexString(addr));
        }
        assertEquals(a.irq(), b.irq(), when + ": IRQ");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 7, 9, 10, 11, 13, 16, 21, 22, 23, 24, 25, 26, 32, 33, 34, 65, 66, 69, 70, 71, 75,
            78, 79, 87, 89, 93, 94, 118, 140, 152, 155, 180, 184, 185, 206, 232, 18, 19, 76, 88, 95, 146, 154, 28, 30, 73, 64, 48, 67, 68, 80, 85})
    void saveAndLoadReproducesTheBoard(int mapper) throws RomFormatException {
        assertTrue(Mappers.isSupported(mapper));
        Cartridge cart = cart(mapper);
        Mapper a = cart.createMapper();
        a.power();
        Random r = new Random(mapper * 7919L);
        for (int i = 0; i < 3000; i++) {
            poke(a, r);
        }
        Tape saved = new Tape(false);
        a.state(saved);
        Mapper b = cart.createMapper();
        b.power();
        b.state(saved.replay());
        // The save is complete: saving b gives the same values.
        Tape again = new Tape(false);
        b.state(again);
        assertSameTape(saved, again, "save of the loaded board");
        assertEquals(a.ciram.hash(), b.ciram.hash());
        assertSameView(a, b, "after load"); // (PPU reads may move latches: both see the same ones)
        // Both keep running in step.
        Random r1 = new Random(1);
        Random r2 = new Random(1);
        for (int i = 0; i < 2000; i++) {
            poke(a, r1);
            poke(b, r2);
            assertEquals(a.irq(), b.irq(), "IRQ at step " + i);
            if (i < 150) {
                // A field left out of the state drifts into visited ones soon after the load.
                Tape ta = new Tape(false);
                Tape tb = new Tape(false);
                a.state(ta);
                b.state(tb);
                assertSameTape(ta, tb, "step " + i);
            }
        }
        // Running both on exposes a field left out of the state (it drifts into visited ones).
        Tape ta = new Tape(false);
        Tape tb = new Tape(false);
        a.state(ta);
        b.state(tb);
        assertSameTape(ta, tb, "after running on");
        assertSameView(a, b, "after running on");
    }

    private static void assertSameTape(Tape x, Tape y, String when) {
        assertEquals(x.values.size(), y.values.size(), when);
        for (int i = 0; i < x.values.size(); i++) {
            Object u = x.values.get(i);
            Object v = y.values.get(i);
            if (u instanceof byte[] ub) {
                assertArrayEquals(ub, (byte[]) v, when + ": value " + i);
            } else if (u instanceof int[] ui) {
                assertArrayEquals(ui, (int[]) v, when + ": value " + i);
            } else {
                assertEquals(u, v, when + ": value " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {82, 86, 254})
    void unsupportedMappersAreRefusedByName(int mapper) {
        assertFalse(Mappers.isSupported(mapper));
        RomFormatException e = org.junit.jupiter.api.Assertions.assertThrows(RomFormatException.class,
                () -> cart(mapper).createMapper());
        assertTrue(e.getMessage().startsWith("s.nes: unsupported mapper " + mapper), e.getMessage());
    }
}
