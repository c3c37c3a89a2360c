package lockstep.nes.core.hw;

import java.util.ArrayList;
import java.util.List;

/**
 * Assembly for test programs that land a DMC DMA on a chosen cycle of an instruction: a one-byte
 * sample started by a $4015 write is fetched at once (its buffer being empty), 2 or 3 cycles
 * after the write by the write's parity. A program cannot see that parity, so it runs its
 * instruction once per entry of {@link #PADDINGS}: after the write, with each of these delays
 * (in cycles), and with the write itself moved by 3 cycles (the other parity). Between two trials
 * the sample byte drains from the buffer ({@link #DRAIN}), so the next write fetches again.
 */
final class DmcSweep {
    private DmcSweep() {
    }

    /** The DMC set up for one-byte samples at $C000 at its fastest rate, no IRQ, no loop. */
    static final String SETUP = String.join("\n",
            "  lda #$0F",
            "  sta $4010",
            "  lda #0",
            "  sta $4012",
            "  sta $4013",
            "");

    /** Waits 1,280 cycles: the output unit has taken the last sample byte out of the buffer. */
    static final String DRAIN = String.join("\n",
            "  ldx #0",
            "drain_loop_%s:",
            "  dex",
            "  bne drain_loop_%s",
            "");

    /** Delays between the $4015 write and the instruction, as instructions (2 and 3 cycles each). */
    static final String[] PADDINGS = {"", "nop", "bit $FE", "nop\n nop", "nop\n bit $FE", "nop\n nop\n nop"};

    /**
     * The trigger of each trial: {@code A} is written to $4015 (it must have bit 4 set; bits
     * 0-3 enable silent channels), after an optional 3-cycle delay that flips the write's parity,
     * followed by a padding.
     */
    static List<String> triggers() {
        List<String> out = new ArrayList<>();
        for (String parity : new String[] {"", "  bit $FE\n"}) {
            for (String pad : PADDINGS) {
                out.add(parity + "  sta $4015\n" + (pad.isEmpty() ? "" : "  " + pad + "\n"));
            }
        }
        return out;
    }

    /** {@link #DRAIN} with its loop label made unique by {@code tag}. */
    static String drain(String tag) {
        return DRAIN.formatted(tag, tag);
    }
}
