package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A board's state saved and loaded into a fresh board of the same cartridge (for board tests). */
public final class BoardSnapshots {
    private BoardSnapshots() {
    }

    /** A fresh, powered board of {@code cart} with {@code board}'s state loaded; its save equals the original's. */
    public static Mapper copy(Cartridge cart, Mapper board) {
        MapperStateTest.Tape saved = new MapperStateTest.Tape(false);
        board.state(saved);
        Mapper copy = Roms.mapper(cart);
        copy.state(saved.replay());
        MapperStateTest.Tape again = new MapperStateTest.Tape(false);
        copy.state(again);
        assertEquals(saved.values.size(), again.values.size());
        return copy;
    }

    /** CPU $6000-$FFFF and PPU $0000-$2FFF as seen through every 1 KiB page: equal on both boards. */
    public static void assertSameView(Mapper a, Mapper b) {
        for (int addr = 0x6000; addr <= 0xFFFF; addr += 0x400) {
            assertEquals(a.cpuPeek(addr), b.cpuPeek(addr), "CPU $" + Integer.toHexString(addr));
        }
        for (int addr = 0; addr < 0x3000; addr += 0x400) {
            assertEquals(a.ppuRead(addr + 0x15), b.ppuRead(addr + 0x15), "PPU $" + Integer.toHexString(addr));
        }
        assertEquals(a.irq(), b.irq(), "IRQ");
    }
}
