package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.NotState;

/**
 * A PPU's term of the per-cycle digest ({@code DigestTerm.of(ppu)}), the sum of its units' parts,
 * kept in three cached parts:
 * <ul>
 * <li>the part that changes only on register accesses and a few dots of a frame, taken again
 * after such an event ({@link #eventsChanged});
 * <li>the registers' part (ctrl, mask, the scroll latches, a pending v, the NMI output, the open
 * bus), taken again alone after a write that changes nothing else ({@link #registersWritten});
 * <li>the part that rendering changes on every dot, taken again after any counted change of the
 * PPU but such a write: it is keyed on the PPU's change count.
 * </ul>
 * A verifying run folds the term after every counted PPU change, and raster code writes the scroll
 * registers hundreds of times a frame (docs/design/performance.md, "The chained fold: a PPU write
 * retook every part"). RegisterWriteDigestTest holds the cache to the described term.
 */
final class PpuDigest {
    private final Ppu ppu;
    @NotState("digest cache")
    private boolean eventsStale = true;
    @NotState("digest cache")
    private long events;
    @NotState("digest cache")
    private boolean registersStale;
    @NotState("digest cache")
    private long registers;
    @NotState("digest cache")
    private long rendering;
    /** The PPU's change count when {@link #rendering} was taken. */
    @NotState("digest cache")
    private long renderingCount = Long.MIN_VALUE;

    PpuDigest(Ppu ppu) {
        this.ppu = ppu;
    }

    long term() {
        if (eventsStale) {
            events = eventsTerm();
            registers = registersTerm();
            eventsStale = false;
            registersStale = false;
        } else if (registersStale) {
            registers = registersTerm();
            registersStale = false;
        }
        final long count = ppu.changes.count();
        if (renderingCount != count) {
            rendering = renderingTerm();
            renderingCount = count;
        }
        return events + registers + rendering;
    }

    /** Something of the event part (or the registers') may have changed: both are taken afresh. */
    void eventsChanged() {
        eventsStale = true;
    }

    /** The PPU counts its changes elsewhere now: the rendering part's key means nothing. */
    void forgetRendering() {
        renderingCount = Long.MIN_VALUE;
    }

    /** The event part is cached and valid. */
    boolean eventsValid() {
        return !eventsStale;
    }

    /** The rendering part is cached as of change count {@code count}. */
    boolean renderingValidAt(long count) {
        return renderingCount == count;
    }

    /**
     * An OAMDATA write on a valid event part: it changed OAM ({@code difference}, the event
     * part's change) and the open bus (the registers' part, taken at the next term).
     */
    void oamWritten(long difference) {
        events += difference;
        eventsStale = false;
        registersStale = true;
    }

    /**
     * A register write that changed only the registers' part ($2000, $2005, $2006): the parts
     * that were valid before it ({@code eventsHeld}, {@code renderingHeld}) hold, the rendering
     * part now as of change count {@code count}.
     */
    void registersWritten(boolean eventsHeld, boolean renderingHeld, long count) {
        if (eventsHeld) {
            eventsStale = false;
            registersStale = true;
        }
        if (renderingHeld) {
            renderingCount = count;
        }
    }

    /** The units' parts that rendering changes on every dot. */
    private long renderingTerm() {
        final Ppu p = ppu;
        return p.timing.hotTerm()
            + W3 * ((p.data.ignoreRead & 0xFFL) << 9) // the batches count it down without an event
            + p.scroll.hotTerm()
            + p.background.term()
            + p.evaluation.hotTerm()
            + p.sprites.term()
            + p.units.hotTerm()
            + p.pixels.hotTerm();
    }

    /** The units' parts that change on events only, the registers' part aside. */
    private long eventsTerm() {
        final Ppu p = ppu;
        return p.timing.coldTerm()
            + p.evaluation.coldTerm()
            + p.pixels.coldTerm()
            + W27 * (((p.renderingPipe & 0xFFL) << 16) | ((p.data.readIn & 0xFFL) << 8) | (p.data.lines & 0xFFL));
    }

    /** What $2000, $2005 and $2006 writes may change, with the open bus. */
    private long registersTerm() {
        final Ppu p = ppu;
        return W2 * (((p.ctrl & 0xFFL) << 51) | ((p.mask & 0xFFL) << 43) | (DigestKeys.b(p.vblank) << 42))
            + W3 * (((p.data.readBuffer & 0xFFL) << 19)
                | (DigestKeys.b(p.nmiOutput) << 18)
                | (DigestKeys.b(p.suppressVblank) << 17)
                | (DigestKeys.b(p.warmedUp) << 8))
            + W12 * ((DigestKeys.b(p.renderingEnabled) << 57)
                | (DigestKeys.b(p.stateUpdatePending) << 56)
                | ((p.pendingV & 0xFFFFL) << 40)
                | ((p.vUpdateDelay & 0xFFL) << 32))
            + p.scroll.coldTerm()
            + p.openBus.term();
    }
}
