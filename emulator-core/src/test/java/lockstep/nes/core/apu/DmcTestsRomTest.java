package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.RomHarness;
import lockstep.nes.core.cpu.Cpu;
import org.junit.jupiter.api.Test;

/**
 * The dmc_tests ROMs have no verdict on screen or in memory: each sets the DAC with $4011,
 * plays a 17-byte sample of $55 (a buzz of alternating +2/-2 steps) around a $4015 or IRQ
 * event, clicks the DAC back with $4011 and ends on a steady pulse tone; the result is in what
 * one hears. This test checks, from the DMC output level, what the hardware must produce:
 *
 * <ul>
 *   <li>buffer_retained: enabling then disabling the DMC 9 cycles later leaves the fetched byte
 *       in the sample buffer, and the output unit still plays it: exactly 8 bit steps.
 *   <li>latency: after an enable the first bit step comes when the output unit's current 8-bit
 *       cycle ends, 1 to 9 timer periods (428 cycles at rate 0) later, varying with its phase.
 *   <li>status: $4015 bit 4 reads 0 as soon as the last byte is fetched into the buffer (as the
 *       byte before it starts playing), so the program's $4011=0 click comes right after that
 *       fetch and two bytes (16 steps) of buzz follow it.
 *   <li>status_irq: the DMC IRQ fires at that same fetch; its handler's click lands there too.
 * </ul>
 */
class DmcTestsRomTest {
    private static final int PERIOD = 428;

    /** DMC events of a run: $4011/$4015 writes, output level changes, the last-byte fetch. */
    private record Event(long cycle, String kind, int value) {
    }

    private static List<Event> run(String name, long cycles) throws Exception {
        Console c = RomHarness.console("dmc_tests/" + name + ".nes");
        Dmc dmc = c.apu().dmc();
        List<Event> events = new ArrayList<>();
        int level = dmc.level;
        int remaining = dmc.bytesRemaining;
        while (c.cycles() < cycles) {
            Cpu cpu = c.cpu();
            if (cpu.isWrite() && (cpu.address() == 0x4011 || cpu.address() == 0x4015)) {
                events.add(new Event(c.cycles() + 1, "W" + Integer.toHexString(cpu.address()), cpu.dataOut()));
            }
            c.runCycle();
            c.apu().sync(); // the APU runs behind until looked at: catch it up to read its DMC
            if (dmc.level != level) {
                int step = dmc.level - level;
                level = dmc.level;
                // A sample bit moves the level by 2; a $4011 write jumps it.
                events.add(new Event(c.cycles(), Math.abs(step) == 2 ? "bit" : "jump", level));
            }
            if (dmc.bytesRemaining != remaining) {
                remaining = dmc.bytesRemaining;
                if (remaining == 0) {
                    events.add(new Event(c.cycles(), "empty", 0));
                }
            }
        }
        return events;
    }

    private static int bitsBetween(List<Event> events, long from, long to) {
        int n = 0;
        for (Event e : events) {
            if (e.kind().equals("bit") && e.cycle() > from && e.cycle() < to) {
                n++;
            }
        }
        return n;
    }

    private static Event first(List<Event> events, String kind, int value, long after) {
        for (Event e : events) {
            if (e.kind().equals(kind) && e.value() == value && e.cycle() > after) {
                return e;
            }
        }
        throw new AssertionError("no " + kind + "=" + value + " after cycle " + after + " in " + events);
    }

    @Test
    void bufferRetainedPlaysTheFetchedByteAfterDisable() throws Exception {
        List<Event> ev = run("buffer_retained", 150_000);
        Event enable = first(ev, "W4015", 0x10, 0);
        Event disable = first(ev, "W4015", 0x00, enable.cycle());
        Event click = first(ev, "W4011", 0x20, disable.cycle());
        assertEquals(9, disable.cycle() - enable.cycle(), "disable follows the enable: " + ev);
        assertEquals(8, bitsBetween(ev, disable.cycle(), click.cycle()), "the retained byte plays: " + ev);
    }

    @Test
    void latencyFromEnableToFirstBitIsUpToNinePeriods() throws Exception {
        List<Event> ev = run("latency", 150_000);
        List<Long> delays = new ArrayList<>();
        long after = 0;
        for (int i = 0; i < 4; i++) {
            Event enable = first(ev, "W4015", 0x10, after);
            Event bit = firstBit(ev, enable.cycle());
            long d = bit.cycle() - enable.cycle();
            assertTrue(d >= PERIOD && d <= 9 * PERIOD, "latency " + d + " cycles: " + ev);
            delays.add(d);
            after = enable.cycle();
        }
        assertTrue(delays.stream().distinct().count() > 1, "latency follows the output unit's phase: " + delays);
    }

    private static Event firstBit(List<Event> events, long after) {
        for (Event e : events) {
            if (e.kind().equals("bit") && e.cycle() > after) {
                return e;
            }
        }
        throw new AssertionError("no sample bit after cycle " + after + " in " + events);
    }

    private static void clickAtLastFetch(String name, int maxDelay) throws Exception {
        List<Event> ev = run(name, 150_000);
        Event enable = first(ev, "W4015", 0x10, 0);
        Event empty = first(ev, "empty", 0, enable.cycle());
        Event click = first(ev, "W4011", 0x00, enable.cycle());
        long delay = click.cycle() - empty.cycle();
        assertTrue(delay > 0 && delay <= maxDelay, name + ": click " + delay + " cycles after the last fetch: " + ev);
        // The last fetch comes as byte 16 moves into the shift register: bytes 16 and 17 (16 steps)
        // still play after the click.
        Event end = first(ev, "W4011", 0x20, click.cycle());
        assertEquals(16, bitsBetween(ev, click.cycle(), end.cycle()), name + ": the last two bytes play after: " + ev);
        int before = bitsBetween(ev, enable.cycle(), empty.cycle());
        assertTrue(before >= 14 * 8 && before <= 16 * 8, name + ": " + before + " steps before the last fetch");
    }

    @Test
    void statusBitClearsWhenTheLastByteIsFetched() throws Exception {
        // BIT $4015 / BNE loop (7 cycles) then LDA #0 / STA $4011.
        clickAtLastFetch("status", 20);
    }

    @Test
    void irqFiresWhenTheLastByteIsFetched() throws Exception {
        // IRQ sequence (7) + handler PHA, LDA #0, STA $4010, STA $4011.
        clickAtLastFetch("status_irq", 30);
    }
}
