package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * The eight sprite output units: each an X counter, a flag for whether its sprite is being
 * drawn, two 8-bit pattern shifters and the sprite's attributes, loaded by the sprite fetches
 * (dots 257-320). On each visible dot (1-256) a unit not yet drawing counts its X down; at zero it
 * starts drawing. Its shifters shift only on visible dots with rendering on. The counters clock
 * with rendering off too (forced blank), the shifters do not (nor in horizontal blank); dot 339
 * of a rendering line with rendering on sets every unit back to counting. So a unit left drawing
 * with rendering off at dot 339 draws its shifters' stale contents from the first dot rendering
 * is on again, whatever its X.
 *
 * <p>On a line that starts with all eight units loaded and set counting, and rendering on
 * throughout, the units show exactly the sprite line {@link PixelOutput} composes at the fetches;
 * then the units are not live: their arrays hold what the fetches loaded and the picture comes
 * from the sprite line (and the batches). Rendering switched on or off on a rendering line, or a
 * visible line starting with rendering off, makes them live: {@link #goLive} derives their state
 * at that dot from what was loaded, and the dot model runs them dot by dot until a line's dot
 * 339 finds all eight freshly loaded with rendering on.
 */
final class SpriteUnits {
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Set: the dot model runs the units; clear: the sprite line shows what they would. */
    boolean live;
    /** Bit i: unit i is drawing (its counter reached zero). */
    int active;
    /**
     * Bits 0-7: units loaded since this line's dot 257 (bit 8) cleared the sprite line; cleared
     * on dot 339.
     */
    int loaded;
    /** Per unit: X counter, pattern shifters (bit 7 the next pixel, flips applied) and meta. */
    final byte[] counter = new byte[8];
    final byte[] low = new byte[8];
    final byte[] high = new byte[8];
    /** Bits 0-1 palette, bit 5 behind the background, bit 6 OAM sprite 0 of the line. */
    final byte[] meta = new byte[8];

    void power() {
        live = false;
        active = 0;
        loaded = 0;
        java.util.Arrays.fill(counter, (byte) 0);
        java.util.Arrays.fill(low, (byte) 0);
        java.util.Arrays.fill(high, (byte) 0);
        java.util.Arrays.fill(meta, (byte) 0);
    }

    /** Dot 257 of a rendering line with rendering on: the sprite line is cleared for the next line. */
    void lineStart() {
        loaded = 0x100;
    }

    /**
     * The fetch of slot {@code slot} loads its unit: counter {@code x}, attributes {@code attr},
     * pattern planes {@code lo}/{@code hi} (transparent for an empty slot). Whether the unit is
     * drawing does not change.
     */
    void load(int slot, int x, int attr, int lo, int hi, boolean zero) {
        counter[slot] = (byte) x;
        if ((attr & 0x40) != 0) {
            lo = Integer.reverse(lo) >>> 24;
            hi = Integer.reverse(hi) >>> 24;
        }
        low[slot] = (byte) lo;
        high[slot] = (byte) hi;
        meta[slot] = (byte) ((attr & 0x23) | (zero ? 0x40 : 0));
        loaded |= 1 << slot;
    }

    /**
     * The units become live at dot {@code d} (all dots up to it run). {@code fetched}: the line
     * is a rendering line that rendered up to here, so its fetches loaded the slots up to
     * {@code d} and, past dot 339, set every unit counting; {@code clocked}: it is also a visible
     * line, so its dots clocked the units loaded by the last line. Otherwise the units hold what
     * the last fetches loaded and were set counting on a rendering line's dot 339 since (forced
     * blank begun outside the rendering lines, or the pre-render line).
     */
    void goLive(boolean clocked, boolean fetched, int d) {
        live = true;
        active = 0;
        loaded = 0;
        if (!fetched || d >= 339) {
            return;
        }
        if (d >= 257) {
            loaded = 0x100;
        }
        final int clocks = clocked ? Math.min(d, 256) : 0;
        for (int i = 0; i < 8; i++) {
            if (d >= 263 + 8 * i) {
                // Loaded on this line: the unit kept drawing since the visible dots ended (every
                // counter of the last line reached zero by dot 256).
                loaded |= 1 << i;
                if (clocked) {
                    active |= 1 << i;
                }
                continue;
            }
            final int x = counter[i] & 0xFF;
            if (clocks > x) {
                active |= 1 << i;
                counter[i] = 0;
                final int shifts = clocks - x;
                low[i] = (byte) (shifts >= 8 ? 0 : (low[i] & 0xFF) << shifts);
                high[i] = (byte) (shifts >= 8 ? 0 : (high[i] & 0xFF) << shifts);
            } else {
                counter[i] = (byte) (x - clocks);
            }
        }
    }

    /** {@code n} visible dots with rendering off: the counters count, the shifters hold. */
    void clockCounters(int n) {
        for (int i = 0; i < 8; i++) {
            if ((active & (1 << i)) == 0) {
                final int c = counter[i] & 0xFF;
                if (n > c) {
                    active |= 1 << i;
                    counter[i] = 0;
                } else {
                    counter[i] = (byte) (c - n);
                }
            }
        }
    }

    /**
     * A visible dot with rendering on: every unit counts or shifts; the pixel of the first unit
     * with an opaque one, in the sprite line's form ({@link PixelOutput#spriteLine}), with bit 6
     * set where the line's sprite 0 is opaque.
     */
    int pixel() {
        int result = 0;
        for (int i = 0; i < 8; i++) {
            if ((active & (1 << i)) == 0) {
                final int c = counter[i] & 0xFF;
                if (c != 0) {
                    counter[i] = (byte) (c - 1);
                    continue;
                }
                active |= 1 << i;
            }
            final int lo = low[i] & 0xFF;
            final int hi = high[i] & 0xFF;
            low[i] = (byte) (lo << 1);
            high[i] = (byte) (hi << 1);
            final int p = (lo >> 7) | ((hi >> 7) << 1);
            if (p != 0) {
                final int m = meta[i];
                if ((result & 0x1F) == 0) {
                    result |= 0x10 | ((m & 3) << 2) | p | (m & 0x20);
                }
                if ((m & 0x40) != 0) {
                    result |= 0x40;
                }
            }
        }
        return result;
    }

    /**
     * Dot 339 of a rendering line with rendering on, while live: every unit counts again; if all
     * eight were loaded on this line after the sprite line was cleared, the sprite line shows the
     * next line and the units stop being live.
     */
    void restart() {
        active = 0;
        if (loaded == 0x1FF) {
            live = false;
        }
        loaded = 0;
    }

    /** This unit's part of the PPU's digest term (it changes during rendering). */
    long hotTerm() {
        return W22 * ((DigestKeys.b(live) << 24) | ((active & 0xFFL) << 16) | (loaded & 0xFFFFL))
            + W23 * (long) LONGS.get(counter, 0)
            + W24 * (long) LONGS.get(low, 0)
            + W25 * (long) LONGS.get(high, 0)
            + W26 * (long) LONGS.get(meta, 0);
    }

    /** The PPU's last entries (after the OAM rows left to corruption). */
    void state(StateVisitor s) {
        live = s.bool("spriteUnitsLive", live);
        active = s.u8("spriteUnitsActive", active);
        loaded = s.u16("spriteUnitsLoaded", loaded, 0x1FF);
        s.bytes("spriteUnitCounters", counter);
        s.bytes("spriteUnitLow", low);
        s.bytes("spriteUnitHigh", high);
        s.bytes("spriteUnitMeta", meta);
    }
}
