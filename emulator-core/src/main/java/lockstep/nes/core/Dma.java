package lockstep.nes.core;

import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The 2A03's DMA unit: OAM DMA ($4014) and DMC sample fetches. Both halt the CPU, which can
 * only be halted on a read cycle; while halted, the CPU's pending read address is re-read on
 * halt, dummy and alignment cycles (the source of the $2007/$4016 double-read glitches).
 * Reads happen on "get" cycles and OAM writes on "put" cycles ({@link ApuPhase}).
 *
 * <p>One call to {@link #cycle} runs exactly one CPU cycle of DMA, so DMA can be saved and
 * resumed at any cycle like everything else.
 */
public final class Dma implements Digestible {
    private final Console console;

    private boolean needHalt;
    private boolean needDummyRead;
    private boolean dmcRunning;
    private boolean abortDmc;
    private boolean oamRunning;
    private int oamPage;

    /** The halt cycle has happened; transfers are in progress. */
    private boolean transferring;
    private int haltAddress;
    private int oamCounter;
    private int oamLow;
    private int value;
    private int prevReadAddress;

    // Digest term cache (derived from the fields above; see digestTerm()).
    @NotState("digest cache")
    private boolean digestStale = true;
    @NotState("digest cache")
    private long digestCached;

    /** Counts this unit's changes for the lockstep check (the console's counter once wired). */
    private ChangeCounter changes = new ChangeCounter();

    Dma(Console console) {
        this.console = console;
    }

    /** Counts this unit's changes in {@code counter} (see {@link ChangeCounter}). */
    void trackChanges(ChangeCounter counter) {
        changes = counter;
    }

    /** The state may have changed: the digest term is stale and the change is counted. */
    private void changed() {
        digestStale = true;
        changes.bump();
    }

    /** A write to $4014: copy page {@code page} to OAM. */
    public void startOam(int page) {
        changed();
        oamRunning = true;
        oamPage = page & 0xFF;
        needHalt = true;
    }

    /** The DMC wants its next sample byte. */
    public void startDmc() {
        changed();
        dmcRunning = true;
        needDummyRead = true;
        needHalt = true;
    }

    /** The DMC was disabled through $4015 while a fetch was pending. */
    public void stopDmc() {
        changed();
        if (dmcRunning) {
            if (needHalt) {
                // Not started yet: cancel entirely.
                dmcRunning = false;
                needDummyRead = false;
                needHalt = false;
            } else {
                abortDmc = true;
            }
        }
    }

    /** True when the DMA unit takes the coming CPU read cycle. */
    public boolean wantsReadCycle() {
        return needHalt || transferring;
    }

    /** The number of the current CPU cycle (its parity decides get/put and APU write delays). */
    public long cpuCycle() {
        return console.cycleCounter();
    }

    public boolean oamActive() {
        return oamRunning;
    }

    /** Runs one DMA cycle in place of the CPU's read of {@code cpuAddress}. */
    void cycle(int cpuAddress) {
        changed();
        Console c = console;
        if (!transferring) {
            haltCycle(c, cpuAddress);
            return;
        }
        boolean skipDummyReads = haltAddress == 0x4016 || haltAddress == 0x4017;
        // The cycle about to run is numbered one past the count (the count is raised as it starts).
        boolean getCycle = ApuPhase.isGet(c.cycleCounter() + 1);
        if (getCycle) {
            if (dmcRunning && !needHalt && !needDummyRead) {
                beginCycle();
                c.startCycle(true);
                value = dmaRead(c, c.apu().dmcReadAddress());
                c.endCycle(true);
                dmcRunning = false;
                abortDmc = false;
                c.apu().dmcDmaDone(value);
            } else if (oamRunning) {
                beginCycle();
                c.startCycle(true);
                value = dmaRead(c, (oamPage << 8) | oamLow);
                c.endCycle(true);
                oamLow = (oamLow + 1) & 0xFF;
                oamCounter++;
            } else {
                beginCycle();
                c.startCycle(true);
                if (!skipDummyReads) {
                    c.read(haltAddress);
                }
                c.endCycle(true);
            }
        } else if (oamRunning && (oamCounter & 1) != 0) {
            beginCycle();
            c.startCycle(true);
            c.write(0x2004, value);
            c.endCycle(true);
            oamCounter++;
            if (oamCounter == 0x200) {
                oamRunning = false;
            }
        } else {
            // Alignment cycle.
            beginCycle();
            c.startCycle(true);
            if (!skipDummyReads) {
                c.read(haltAddress);
            }
            c.endCycle(true);
        }
        if (!dmcRunning && !oamRunning) {
            transferring = false;
        }
    }

    private void haltCycle(Console c, int cpuAddress) {
        needHalt = false;
        haltAddress = cpuAddress;
        prevReadAddress = cpuAddress;
        boolean input = cpuAddress == 0x4016 || cpuAddress == 0x4017;
        c.startCycle(true);
        if (!(abortDmc && input) && !(input && dmcRunning && sameInternalRegister(c, cpuAddress))) {
            c.read(cpuAddress);
        }
        c.endCycle(true);
        if (abortDmc) {
            dmcRunning = false;
            abortDmc = false;
            if (!oamRunning) {
                needDummyRead = false;
                return;
            }
        }
        transferring = dmcRunning || oamRunning;
        oamCounter = 0;
        oamLow = 0;
    }

    /**
     * The DMC's fetch will read the internal register the halted CPU is reading ($4016 or $4017,
     * by the low 5 bits of its address): the controller's /OE then stays low from the halt cycle
     * to that fetch, one read for the controller, so the halt cycle does not clock it.
     */
    private static boolean sameInternalRegister(Console c, int cpuAddress) {
        return (c.apu().dmcReadAddress() & 0x1F) == (cpuAddress & 0x1F);
    }

    /** Bookkeeping at the start of every transfer cycle: OAM cycles also serve as DMC halt/dummy. */
    private void beginCycle() {
        if (abortDmc) {
            dmcRunning = false;
            abortDmc = false;
            needDummyRead = false;
            needHalt = false;
        } else if (needHalt) {
            needHalt = false;
        } else if (needDummyRead) {
            needDummyRead = false;
        }
    }

    /**
     * A DMA read. The 2A03's register block ($4000-$401F) is enabled by bits 15-5 of the halted
     * CPU's address, while the register inside it is selected by bits 4-0 of the internal address
     * bus, which carries the DMA's address. So when the CPU was halted on a read of $40xx, the
     * DMA's get reads the cartridge at {@code address} and register $4000 | (address & $1F) at
     * once:
     * <ul>
     * <li>$4015: the status read's side effects happen (the frame-IRQ flag clears); the status
     * drives only the internal bus, so the external bus and the fetched byte are the ROM's;</li>
     * <li>$4016/$4017: that port is clocked, unless the halted CPU was already reading the same
     * register (its /OE never went high: one read for the controller); the port drives its bits
     * (D0-D4) and the ROM byte shows in the bits it leaves undriven (D5-D7);</li>
     * <li>any other register: the ROM byte alone.</li>
     * </ul>
     * What the get left on the bus is what the fetch takes and what the CPU's resumed read of an
     * undriven address returns.
     */
    private int dmaRead(Console c, int address) {
        boolean internal = (haltAddress & 0xFFE0) == 0x4000;
        if (!internal) {
            prevReadAddress = address;
            if (address >= 0x4000 && address <= 0x401F) {
                return c.openBus();
            }
            return c.read(address);
        }
        int internalAddress = 0x4000 | (address & 0x1F);
        int v;
        switch (internalAddress) {
            case 0x4015 -> {
                c.read(internalAddress);
                v = c.read(address);
            }
            case 0x4016, 0x4017 -> {
                int port = internalAddress & 1;
                int driven = prevReadAddress == internalAddress
                        ? c.controllers().peek(port, 0, c.cycleCounter())
                        : c.read(internalAddress);
                int rom = c.read(address);
                v = (rom & PORT_UNDRIVEN) | (driven & ~PORT_UNDRIVEN & 0xFF);
                c.leaveOnBus(v);
            }
            default -> v = c.read(address);
        }
        prevReadAddress = internalAddress;
        return v;
    }

    /** The data bits a controller port's read leaves undriven (open bus). */
    private static final int PORT_UNDRIVEN = 0xE0;

    public void power() {
        changed();
        needHalt = false;
        needDummyRead = false;
        dmcRunning = false;
        abortDmc = false;
        oamRunning = false;
        transferring = false;
        oamPage = 0;
        oamCounter = 0;
        oamLow = 0;
        value = 0;
        haltAddress = 0;
        prevReadAddress = 0;
    }

    /**
     * This component's term of the per-cycle digest ({@code DigestTerm.of(this)}): DMA state
     * changes only while a DMA runs, so the term is cached and recomputed after a change.
     */
    @Override
    public long digestTerm() {
        if (digestStale) {
            digestCached = fullDigestTerm();
            digestStale = false;
        }
        return digestCached;
    }

    private long fullDigestTerm() {
        return W0 * ((DigestKeys.b(needHalt) << 61)
            | (DigestKeys.b(needDummyRead) << 60)
            | (DigestKeys.b(dmcRunning) << 59)
            | (DigestKeys.b(abortDmc) << 58)
            | (DigestKeys.b(oamRunning) << 57)
            | ((oamPage & 0xFFL) << 49)
            | (DigestKeys.b(transferring) << 48)
            | ((haltAddress & 0xFFFFL) << 32)
            | (oamCounter & 0xFFFFFFFFL))
        + W1 * (((oamLow & 0xFFL) << 24)
            | ((value & 0xFFL) << 16)
            | (prevReadAddress & 0xFFFFL));
    }

    @Override
    public void state(StateVisitor s) {
        needHalt = s.bool("needHalt", needHalt);
        needDummyRead = s.bool("needDummyRead", needDummyRead);
        dmcRunning = s.bool("dmcRunning", dmcRunning);
        abortDmc = s.bool("abortDmc", abortDmc);
        oamRunning = s.bool("oamRunning", oamRunning);
        oamPage = s.u8("oamPage", oamPage);
        transferring = s.bool("transferring", transferring);
        haltAddress = s.u16("haltAddress", haltAddress);
        oamCounter = s.i32("oamCounter", oamCounter, 0, 0x200);
        oamLow = s.u8("oamLow", oamLow);
        value = s.u8("value", value);
        prevReadAddress = s.u16("prevReadAddress", prevReadAddress);
        changed();
    }
}
