package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.core.Dma;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The delta modulation channel ($4010-$4013): a memory reader that fetches sample bytes by
 * DMA (stealing CPU cycles), and an output unit that shifts them out one bit per timer
 * period, moving a 7-bit level up or down by 2.
 */
final class Dmc implements Digestible {
    /** Timer periods in CPU cycles, the region's ({@link ApuPeriods}). Fixed wiring, not state. */
    @NotState("the region's period table: fixed wiring")
    private final int[] periods;

    private final Dma dma;

    boolean irqFlag;
    private boolean irqEnabled;
    private boolean loop;
    private int period;
    private int timer;
    private int sampleAddress;
    private int sampleLength;
    int level;

    // Memory reader.
    private int currentAddress;
    int bytesRemaining;
    private int buffer;
    private boolean bufferEmpty;

    // Output unit.
    private int shift;
    private int bitsRemaining;
    private boolean silence;

    /** CPU cycles until a $4015 enable starts the first fetch (2 or 3, by cycle parity). */
    private int startDelay;
    /** CPU cycles until a $4015 disable takes effect (2 or 3, by cycle parity). */
    private int disableDelay;

    // Digest term cache of everything but the timer (see digestTerm()).
    @NotState("digest cache")
    private boolean digestStale = true;
    /** Recomputations of {@link #digestCold} (see {@link #digestChangedSince}). A cache counter, not state. */
    @NotState("digest cache")
    private int digestVersion;
    @NotState("digest cache")
    private long digestCold;

    Dmc(Dma dma) {
        this(dma, Region.NTSC);
    }

    Dmc(Dma dma, Region region) {
        this.periods = ApuPeriods.dmc(region);
        this.dma = dma;
    }

    void power() {
        digestStale = true;
        sampleAddress = 0xC000;
        sampleLength = 1;
        level = 0;
        reset();
    }

    /** Soft reset: the sample address and length survive; the output level keeps only bit 0. */
    void reset() {
        digestStale = true;
        irqFlag = false;
        irqEnabled = false;
        loop = false;
        period = periods[0] - 1;
        // The timer starts full, so the first output clock comes a whole period after power.
        timer = period;
        level &= 1;
        currentAddress = 0;
        bytesRemaining = 0;
        buffer = 0;
        bufferEmpty = true;
        shift = 0;
        bitsRemaining = 8;
        silence = true;
        startDelay = 0;
        disableDelay = 0;
    }

    void write(int reg, int value) {
        // A game that restarts samples from its IRQ handler writes these hundreds of times a
        // frame, each write folded by a verifying stretch: a valid cached term takes the
        // register's difference (its fields share no bits with the rest of their word) instead
        // of being recomputed.
        final long before = digestStale ? 0 : registerWords(reg);
        switch (reg) {
            case 0 -> {
                irqEnabled = (value & 0x80) != 0;
                loop = (value & 0x40) != 0;
                period = periods[value & 0x0F] - 1;
                if (!irqEnabled) {
                    irqFlag = false;
                }
            }
            case 1 -> level = value & 0x7F;
            case 2 -> sampleAddress = 0xC000 | (value << 6);
            default -> sampleLength = (value << 4) | 1;
        }
        if (!digestStale) {
            digestCold += registerWords(reg) - before;
            digestVersion++;
        }
    }

    /** The part of {@link #coldDigestTerm} that register {@code reg}'s write sets. */
    private long registerWords(int reg) {
        return switch (reg) {
            case 0 -> W0 * ((DigestKeys.b(irqFlag) << 50)
                | (DigestKeys.b(irqEnabled) << 49)
                | (DigestKeys.b(loop) << 48)
                | ((period & 0xFFFFL) << 32));
            case 1 -> W1 * ((level & 0xFFL) << 40);
            case 2 -> W0 * (sampleAddress & 0xFFFFL);
            default -> W1 * ((sampleLength & 0xFFFFL) << 48);
        };
    }

    /** $4015 bit 4. {@code oddCycle}: the parity of the CPU cycle of the write. */
    void setEnabled(boolean enabled, boolean oddCycle) {
        digestStale = true;
        if (!enabled) {
            if (disableDelay == 0) {
                disableDelay = oddCycle ? 3 : 2;
            }
        } else if (bytesRemaining == 0) {
            restartSample();
            startDelay = oddCycle ? 3 : 2;
        }
    }

    private void restartSample() {
        currentAddress = sampleAddress;
        bytesRemaining = sampleLength;
    }

    private void requestFetch() {
        if (bufferEmpty && bytesRemaining > 0) {
            dma.startDmc();
        }
    }

    /** The delayed effects of $4015 writes; runs first in each CPU cycle. */
    void stepDelays() {
        if (disableDelay != 0) {
            digestStale = true;
        }
        if (startDelay != 0) {
            digestStale = true;
        }
        if (disableDelay != 0 && --disableDelay == 0) {
            bytesRemaining = 0;
            dma.stopDmc();
        }
        if (startDelay != 0 && --startDelay == 0) {
            requestFetch();
        }
    }

    /** One CPU cycle of the output unit's timer. */
    void step() {
        if (timer != 0) {
            timer--;
            return;
        }
        timer = period;
        digestStale = true;
        if (!silence) {
            if ((shift & 1) != 0) {
                if (level <= 125) {
                    level += 2;
                }
            } else if (level >= 2) {
                level -= 2;
            }
            shift >>= 1;
        }
        if (--bitsRemaining == 0) {
            bitsRemaining = 8;
            if (bufferEmpty) {
                silence = true;
            } else {
                silence = false;
                shift = buffer;
                bufferEmpty = true;
                if (startDelay == 0) {
                    requestFetch();
                }
            }
        }
    }

    /**
     * True when the coming cycles can be run by {@link #skip}: no delayed $4015 effect is
     * waiting and the bit counter is in range (anything else is stepped cycle by cycle).
     */
    boolean quiet() {
        return startDelay == 0 && disableDelay == 0 && bitsRemaining >= 1 && bitsRemaining <= 8;
    }

    /**
     * How many coming CPU cycles {@link #skip} may run (when {@link #quiet}): those before the
     * next timer expiry while a byte is being shifted out (each moves the level); while silent,
     * those before the expiry that would load a waiting buffer byte (and ask for the next one);
     * all of them while silent with an empty buffer (only the bit counter turns over).
     */
    int quietSpan() {
        if (!silence) {
            return timer;
        }
        if (bufferEmpty) {
            return Integer.MAX_VALUE;
        }
        return timer + (bitsRemaining - 1) * (period + 1);
    }

    /**
     * CPU cycles until the step that will ask for DMA (the expiry that empties the buffer
     * into the shift register), or MAX_VALUE if none is due without a register write or a
     * fetch first. Only meaningful when {@link #quiet}.
     */
    long cyclesToRequest() {
        if (bufferEmpty || bytesRemaining == 0) {
            return Long.MAX_VALUE;
        }
        return timer + 1 + (long) (bitsRemaining - 1) * (period + 1);
    }

    /** {@code n} CPU cycles of {@link #step} at once, within {@link #quietSpan}. */
    void skip(int n) {
        final long run = TimerSkip.run(timer, period + 1, n);
        timer = (int) run;
        final int e = TimerSkip.expiries(run);
        if (e == 0) {
            return;
        }
        // Only while silent: each expiry counts a bit down; an empty buffer keeps it silent.
        bitsRemaining = Math.floorMod(bitsRemaining - 1 - e, 8) + 1;
        digestStale = true;
    }

    int readAddress() {
        return currentAddress;
    }

    /** The byte a DMC DMA fetched. */
    void fetched(int value) {
        digestStale = true;
        if (bytesRemaining != 0) {
            buffer = value & 0xFF;
            bufferEmpty = false;
            currentAddress = (currentAddress + 1) & 0xFFFF;
            if (currentAddress == 0) {
                currentAddress = 0x8000;
            }
            if (--bytesRemaining == 0) {
                if (loop) {
                    restartSample();
                } else if (irqEnabled) {
                    irqFlag = true;
                }
            }
        }
        if (sampleLength == 1 && !loop && bitsRemaining == 1 && timer < 2) {
            // The implicit abort: a one-byte sample fetched on the APU cycle before the bit
            // counter turns over restarts, so the turn-over asks for another fetch, and the
            // reader stops again 3 cycles later. That DMA is aborted after its halt cycle, or
            // never happens when the CPU was writing (no halt yet). $4015 reads the sample as
            // playing meanwhile.
            shift = buffer;
            bufferEmpty = false;
            restartSample();
            disableDelay = 3;
        }
    }

    /**
     * This component's term of the per-cycle digest ({@code DigestTerm.of(this)}): only the
     * timer changes every cycle; the rest is cached and recomputed after a change (register
     * writes, the timer's expiry, delays, fetches).
     */
    @Override
    public long digestTerm() {
        refreshDigest();
        return digestCold + hotDigestTerm();
    }

    /** How many times the cached part was recomputed (the APU's whole-term cache keys on it). */
    int digestVersion() {
        return digestVersion;
    }

    /**
     * True when the cached part may have changed since it was at {@code version}: an event marked
     * it stale, or someone recomputed it since. (The timer changes only while the APU runs.)
     */
    boolean digestChangedSince(int version) {
        return digestStale || digestVersion != version;
    }

    private void refreshDigest() {
        if (digestStale) {
            digestCold = coldDigestTerm();
            digestStale = false;
            digestVersion++;
        }
    }

    private long hotDigestTerm() {
        return W0 * ((timer & 0xFFFFL) << 16);
    }

    /**
     * The term but the timer's part ({@link #hotDigestTerm}). Each word is a sum of fields that
     * share no bits, so the registers' fields ({@link #registerWords}) are added to the rest.
     */
    private long coldDigestTerm() {
        return registerWords(0) + registerWords(1) + registerWords(2) + registerWords(3)
        + W1 * (((currentAddress & 0xFFFFL) << 24)
            | ((bytesRemaining & 0xFFFFL) << 8)
            | (buffer & 0xFFL))
        + W2 * ((DigestKeys.b(bufferEmpty) << 33)
            | ((shift & 0xFFL) << 25)
            | ((bitsRemaining & 0xFFL) << 17)
            | (DigestKeys.b(silence) << 16)
            | ((startDelay & 0xFFL) << 8)
            | (disableDelay & 0xFFL));
    }

    @Override
    public void state(StateVisitor s) {
        irqFlag = s.bool("irqFlag", irqFlag);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        loop = s.bool("loop", loop);
        period = s.u16("period", period, 427);
        timer = s.u16("timer", timer, 427);
        sampleAddress = s.u16("sampleAddress", sampleAddress);
        sampleLength = s.u16("sampleLength", sampleLength, 0xFF1);
        level = s.u8("level", level, 0x7F);
        currentAddress = s.u16("currentAddress", currentAddress);
        bytesRemaining = s.u16("bytesRemaining", bytesRemaining, 0xFF1);
        buffer = s.u8("buffer", buffer);
        bufferEmpty = s.bool("bufferEmpty", bufferEmpty);
        shift = s.u8("shift", shift);
        bitsRemaining = s.u8("bitsRemaining", bitsRemaining, 8);
        silence = s.bool("silence", silence);
        startDelay = s.u8("startDelay", startDelay, 3);
        disableDelay = s.u8("disableDelay", disableDelay, 3);
        digestStale = true;
    }
}
