package lockstep.nes.core.cart.tengen;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.part.A12Filter;
import lockstep.nes.core.cart.part.DelayedIrq;
import lockstep.nes.core.cart.part.Mmc3IrqCounter;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 64: Tengen RAMBO-1, an MMC3 with three more bank registers and a second IRQ clock.
 * Registers by A15-A13 and A0: $8000 bank select ({@code CPK. RRRR}: C inverts CHR A12, P the
 * PRG arrangement, K 1 KiB CHR banks everywhere, R the register $8001 writes), $8001 bank data
 * (R0-R5 CHR, R6/R7 PRG, R8/R9 CHR in K mode, RF PRG), $A000 nametables (0 vertical, 1
 * horizontal), $C000 IRQ latch, $C001 IRQ mode (bit 0: 1 counts CPU cycles / 4, 0 PPU A12
 * rises) and reload request, $E000 IRQ disable and acknowledge, $E001 IRQ enable.
 *
 * <p>PRG: P=0 maps R6, R7, RF at $8000, $A000, $C000; P=1 maps RF, R6, R7; $E000 is the last
 * bank. CHR (before the C inversion, which swaps the halves): K=0 R0 and R1 as 2 KiB banks (low
 * bit ignored, as on the MMC3) at $0000/$0800 and R2-R5 1 KiB at $1000-$1C00; K=1 R0, R8, R1,
 * R9 at $0000-$0C00.
 *
 * <p>The counter is clocked by A12 rises (filtered through M2 like the MMC3's: A12 low for
 * {@link A12Filter#LOW_CYCLES} M2 edges) in scanline mode, or every fourth CPU cycle in cycle
 * mode. A clock reloads it with latch + 1 when $C001 was written since the last clock, with the
 * latch when it is 0, and else decrements it; when it is then 0 with IRQs enabled the IRQ is
 * raised, later than the MMC3 would: two CPU cycles after the rise's cycle in scanline mode, one
 * cycle after the clocking cycle in cycle mode (NESdev's RAMBO-1 page; the per-game adjustments
 * some emulators make for Hard Drivin' and Skull &amp; Crossbones are not modelled). $E000 also
 * cancels an IRQ still in its delay.
 *
 * <p>The counter's only effect the CPU sees between accesses is /IRQ, so the console may run the
 * PPU behind the CPU ({@link #lazyPpuSafe}): rises are timed by the dot they happen on
 * ({@link #busCycles}), {@link #dotsToBoardEvent} bounds how soon a rise could start an IRQ,
 * and the console catches the PPU up by then, before the {@link #cpuCycle} call that counts the
 * delay down, as when the PPU is stepped with the CPU.
 */
public final class Rambo1 extends Mapper {
    /** {@link #cpuCycle} calls from a clock that hits 0 to /IRQ, by mode. */
    private static final int SCANLINE_IRQ_DELAY = 2;
    private static final int CYCLE_IRQ_DELAY = 1;

    private int bankSelect;
    private final int[] regs = new int[16];
    private int mirror;
    private final Mmc3IrqCounter counter = Mmc3IrqCounter.rambo1();
    private boolean cycleMode;
    /** CPU cycles counted towards the next cycle-mode clock (0-3). */
    private int prescaler;
    private final DelayedIrq irq = new DelayedIrq();
    private final A12Filter a12 = new A12Filter();

    public Rambo1(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.PPU_BUS;
    }

    @Override
    public boolean irq() {
        return irq.line();
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    /**
     * Only a scanline-mode clock that leaves the counter at 0 with IRQs enabled (and none raised
     * or on its way) starts an IRQ from the PPU side; it needs {@code rises} more clocks, the
     * first possibly on the next dot and each further one {@link A12Filter#DOTS_BETWEEN_CLOCKS} later.
     */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        if (cycleMode || irq.blocked()) {
            return Integer.MAX_VALUE;
        }
        return A12Filter.dotsToClock(counter.clocksToIrq());
    }

    @Override
    public void cpuCycle() {
        super.cpuCycle(); // a board without a console counts its cycles there
        irq.cpuCycle();
        if (cycleMode) {
            prescaler = (prescaler + 1) & 3;
            if (prescaler == 0) {
                clockCounter(CYCLE_IRQ_DELAY);
            }
        }
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            return;
        }
        final boolean odd = (addr & 1) != 0;
        switch ((addr >> 13) & 3) {
            case 0 -> {
                if (odd) {
                    regs[bankSelect & 0x0F] = value;
                } else {
                    bankSelect = value;
                }
                updateBanks();
            }
            case 1 -> {
                if (!odd) {
                    mirror = value & 1;
                    updateBanks();
                }
            }
            case 2 -> {
                if (odd) {
                    cycleMode = (value & 1) != 0;
                    counter.requestReload();
                    prescaler = 0;
                } else {
                    counter.writeLatch(value);
                }
            }
            default -> {
                if (odd) {
                    irq.enable();
                } else {
                    irq.disable();
                }
            }
        }
    }

    private void clockCounter(int delay) {
        if (counter.clock()) {
            irq.start(delay);
        }
    }

    // ---- A12 watching ---------------------------------------------------------------------

    /** Also reached through {@link Mapper#ppuRead} and {@link Mapper#ppuWrite} ({@link #a12Line}). */
    @Override
    public void ppuAddress(int addr) {
        final int level = addr & 0x1000;
        if (level != a12.level() && a12.edge(level, busTime()) && !cycleMode) {
            clockCounter(SCANLINE_IRQ_DELAY);
        }
    }

    @Override
    protected int[] a12Line() {
        return a12.line();
    }

    // ---- banking --------------------------------------------------------------------------

    @Override
    protected void powerOn() {
        bankSelect = 0;
        for (int i = 0; i < regs.length; i++) {
            regs[i] = 0;
        }
        mirror = 0;
        counter.power();
        cycleMode = false;
        prescaler = 0;
        irq.power();
        a12.power(busCycles());
    }

    @Override
    protected void updateBanks() {
        final int inv = (bankSelect & 0x80) != 0 ? 4 : 0;
        if ((bankSelect & 0x20) != 0) {
            chr1(inv, regs[0]);
            chr1(inv + 1, regs[8]);
            chr1(inv + 2, regs[1]);
            chr1(inv + 3, regs[9]);
        } else {
            chr1(inv, regs[0] & 0xFE);
            chr1(inv + 1, regs[0] | 1);
            chr1(inv + 2, regs[1] & 0xFE);
            chr1(inv + 3, regs[1] | 1);
        }
        for (int i = 0; i < 4; i++) {
            chr1((inv ^ 4) + i, regs[2 + i]);
        }
        if ((bankSelect & 0x40) != 0) {
            prg8(0, regs[15]);
            prg8(1, regs[6]);
            prg8(2, regs[7]);
        } else {
            prg8(0, regs[6]);
            prg8(1, regs[7]);
            prg8(2, regs[15]);
        }
        prg8(3, -1);
        mirroring(mirror == 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL);
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        bankSelect = s.u8("bankSelect", bankSelect);
        s.ints("regs", regs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        counter.state(s); // irqLatch, irqCounter, reloadPending
        cycleMode = s.bool("cycleMode", cycleMode);
        prescaler = s.u8("prescaler", prescaler);
        irq.state(s); // irqEnabled, irqDelay, irqLine
        a12.state(s, busCycles());
    }
}
