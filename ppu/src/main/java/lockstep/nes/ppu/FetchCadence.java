package lockstep.nes.ppu;

/**
 * The PPU's multiplexed address/data bus during rendering, as the CPU's register accesses see
 * it. Each rendering fetch takes two dots: on the first (odd) dot ALE is high and the PPU drives
 * the address, whose low byte an external latch keeps; on the second the PPU reads the data
 * through AD0-AD7 while it still drives A8-A13 itself. So an address source that changes
 * between the two dots (v taking a $2006 address, or a $2007 access stepping v) makes the fetch
 * read from A8-A13 of the new address and the low byte of the old one. The fetches: nametable,
 * attribute, pattern low, pattern high for each 8 dots of 1-256 and 321-336; per sprite slot on
 * 257-320 nametable twice, then the pattern planes (tile $FF for an empty slot); nametable twice
 * on 337-340. The nametable address set up on dot 257 is v's from before the horizontal copy.
 *
 * <p>The dot path makes a fetch whole on its first dot; this unit redoes the read of a fetch
 * whose address changed in between, and gives the address of the fetch starting on a dot (for
 * the data port's read on an address dot, {@link DataPort}). It holds no state: everything
 * comes from the position, v, the latches and secondary OAM.
 */
final class FetchCadence {
    private final Timing timing;
    private final Scroll scroll;
    private final Background background;
    private final SpriteFetch sprites;
    private final RenderBus bus;

    FetchCadence(Timing timing, Scroll scroll, Background background, SpriteFetch sprites, RenderBus bus) {
        this.timing = timing;
        this.scroll = scroll;
        this.background = background;
        this.sprites = sprites;
        this.bus = bus;
    }

    /**
     * The address of the fetch that started on odd dot {@code o} of the current rendering line,
     * computed from {@code vv} (where it uses v) and the latches, or -1 on dots without one.
     */
    int address(int o, int vv, int ctrl) {
        if (o <= 255 || (o >= 321 && o <= 335)) {
            return Background.fetchAddress(o & 7, vv, background.ntLatch, (ctrl & 0x10) << 8);
        }
        if (o <= 319) {
            final int phase = (o - 257) & 7;
            if (phase < 4) {
                return 0x2000 | (vv & 0x0FFF);
            }
            return sprites.patternAddress((o - 257) >> 3, timing.scanline, ctrl) | (phase == 6 ? 8 : 0);
        }
        return 0x2000 | (vv & 0x0FFF); // 337, 339: the unused nametable fetches
    }

    /** True when the fetch starting on odd dot {@code o} takes its address from v. */
    private static boolean fromV(int o) {
        if (o <= 255 || (o >= 321 && o <= 335)) {
            return (o & 7) <= 3;
        }
        return o >= 337 || ((o - 257) & 7) < 4;
    }

    /**
     * After the current dot of a rendering line, v changed from {@code oldV}: if the dot is the
     * ALE dot of a fetch addressed by v, its read on the next dot takes A8-A13 from the new v and
     * the low byte from the latch, and the latch the fetch fills takes that byte. Returns the
     * byte read, or -1 when the current dot starts no such fetch.
     */
    int addressChanged(int oldV, int ctrl) {
        final int o = timing.dot;
        if ((o & 1) == 0 || !fromV(o)) {
            return -1;
        }
        final int hybrid = (address(o, scroll.v, ctrl) & 0x3F00) | (address(o, oldV, ctrl) & 0x00FF);
        final int value = bus.fetch(hybrid);
        bus.data = value;
        if (o <= 255 || (o >= 321 && o <= 335)) {
            if ((o & 7) == 1) {
                background.ntLatch = value;
            } else {
                background.atLatch = Background.attributeBits(value, oldV);
            }
        } else if (o >= 337) {
            background.ntLatch = value;
        }
        return value;
    }
}
