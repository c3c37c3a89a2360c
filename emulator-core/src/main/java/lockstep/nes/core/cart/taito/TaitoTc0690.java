package lockstep.nes.core.cart.taito;

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
 * Mapper 48: Taito TC0690, the TC0190 (mapper 33) with an MMC3-like scanline IRQ. Registers by
 * A15-A13 and A1-A0: $8000/$8001 the 8 KiB PRG banks at $8000/$A000 (bits 0-5; $C000 and $E000
 * hold the last two banks), $8002/$8003 2 KiB CHR banks at $0000/$0800 (the value counts 2 KiB
 * units, all bits used), $A000-$A003 1 KiB CHR banks at $1000-$1C00, $C000 the IRQ latch
 * (written inverted: $06 there is the MMC3's $F9), $C001 reload request, $C002 IRQ enable, $C003
 * IRQ disable and acknowledge, $E000 bit 6 nametables (0 vertical, 1 horizontal).
 *
 * <p>The counter runs as the MMC3B's (clocked by M2-filtered A12 rises; reloaded from the latch
 * when 0 or asked to, else decremented; the IRQ raised when it is then 0 and enabled), but /IRQ
 * follows {@link #IRQ_DELAY} CPU cycles after the clocking rise (NESdev: "about 4 CPU cycles"
 * later than the MMC3's), counted by {@link #cpuCycle} calls. As with the MMC3 and RAMBO-1, the
 * console may run the PPU behind the CPU ({@link #lazyPpuSafe}, {@link #dotsToBoardEvent}).
 */
public final class TaitoTc0690 extends Mapper {
    /** CPU cycles from the clocking rise to /IRQ. */
    static final int IRQ_DELAY = 4;

    private final int[] regs = new int[8];
    private int mirror;
    /** The MMC3B's counter. */
    private final Mmc3IrqCounter counter = new Mmc3IrqCounter(false);
    private final DelayedIrq irq = new DelayedIrq();
    private final A12Filter a12 = new A12Filter();

    public TaitoTc0690(Cartridge cart) {
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
     * Only a clock that leaves the counter at 0 with IRQs enabled (and none raised or on its way)
     * starts an IRQ; it needs {@code rises} more clocks, the first possibly on the next dot and
     * each further one {@link A12Filter#DOTS_BETWEEN_CLOCKS} later.
     */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return irq.blocked() ? Integer.MAX_VALUE : A12Filter.dotsToClock(counter.clocksToIrq());
    }

    @Override
    public void cpuCycle() {
        super.cpuCycle(); // a board without a console counts its cycles there
        irq.cpuCycle();
    }

    @Override
    public void cpuWrite(int addr, int value) {
        switch (addr & 0xE003) {
            case 0x8000, 0x8001, 0x8002, 0x8003 -> regs[addr & 3] = value;
            case 0xA000, 0xA001, 0xA002, 0xA003 -> regs[4 + (addr & 3)] = value;
            case 0xC000 -> counter.writeLatch(value ^ 0xFF);
            case 0xC001 -> counter.requestReload();
            case 0xC002 -> irq.enable();
            case 0xC003 -> irq.disable();
            case 0xE000 -> mirror = (value >> 6) & 1;
            default -> {
                return;
            }
        }
        updateBanks();
    }

    /** Also reached through {@link Mapper#ppuRead} and {@link Mapper#ppuWrite} ({@link #a12Line}). */
    @Override
    public void ppuAddress(int addr) {
        final int level = addr & 0x1000;
        if (level != a12.level() && a12.edge(level, busTime()) && counter.clock()) {
            irq.start(IRQ_DELAY);
        }
    }

    @Override
    protected int[] a12Line() {
        return a12.line();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < regs.length; i++) {
            regs[i] = 0;
        }
        mirror = 0;
        counter.power();
        irq.power();
        a12.power(busCycles());
    }

    @Override
    protected void updateBanks() {
        prg8(0, regs[0] & 0x3F);
        prg8(1, regs[1] & 0x3F);
        prg8(2, -2);
        prg8(3, -1);
        chr2(0, regs[2]);
        chr2(1, regs[3]);
        for (int i = 0; i < 4; i++) {
            chr1(4 + i, regs[4 + i]);
        }
        mirroring(mirror == 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL);
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("regs", regs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        counter.state(s); // irqLatch, irqCounter, irqReload
        irq.state(s); // irqEnabled, irqDelay, irqLine
        a12.state(s, busCycles());
    }
}
