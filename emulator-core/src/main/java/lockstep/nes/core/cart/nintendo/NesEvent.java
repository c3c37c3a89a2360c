package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 105, NES-EVENT (Nintendo World Championships 1990): an MMC1 whose CHR bank 0 bits drive
 * discrete logic instead of CHR (8 KiB of CHR-RAM, unbanked).
 *
 * <p>CHR bank 0 bit 3 clear selects a 32 KiB bank of the lower 128 KiB by bits 1-2; set, the
 * upper 128 KiB with the MMC1's own PRG banking. Bit 4 set holds a 30-bit counter clocked by M2
 * at zero (releasing /IRQ), clear lets it count. The first 32 KiB stays mapped until the counter
 * has run and then been held once. The counter pulls /IRQ low when it reaches $20000000 plus the
 * DIP switches in bits 25-28 (all off here: about 5 minutes on an NTSC console).
 */
public final class NesEvent extends Mmc1 {
    /** The DIP switches (bits 25-28 of the count that fires the IRQ). */
    private static final int DIP_SWITCHES = 0;
    /** The count at which the counter pulls /IRQ low. */
    static final long IRQ_COUNT = 0x2000_0000L | ((long) DIP_SWITCHES << 25);

    /** 0 locked, 1 the counter has run, 2 unlocked (it was then held). */
    private int lock;
    /** True while the counter counts (CHR bank 0 bit 4 last written clear). */
    private boolean running;
    /** The board's cycle count at which the counter last left zero. */
    private long start;

    public NesEvent(Cartridge cart) {
        super(cart, false, false);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.PPU_BUS | BoardHooks.IRQ;
    }

    @Override
    public boolean irq() {
        return running && cycles() - start >= IRQ_COUNT;
    }

    @Override
    void registerWritten(long now) {
        final boolean hold = (chr0 & 0x10) != 0;
        if (lock == 0 && !hold) {
            lock = 1;
        } else if (lock == 1 && hold) {
            lock = 2;
        }
        if (hold) {
            running = false;
        } else if (!running) {
            running = true;
            start = now;
        }
    }

    @Override
    protected void powerOn() {
        super.powerOn();
        lock = 0;
        running = false;
        start = 0;
    }

    @Override
    protected void updateBanks() {
        if (lock < 2) {
            prg32(0);
        } else if ((chr0 & 0x08) == 0) {
            prg32((chr0 >> 1) & 3);
        } else {
            final int bank = prgReg & 0x07;
            switch ((control >> 2) & 3) {
                case 0, 1 -> {
                    prg16(0, 8 | (bank & 0x06));
                    prg16(1, 8 | (bank & 0x06) | 1);
                }
                case 2 -> {
                    prg16(0, 8);
                    prg16(1, 8 | bank);
                }
                default -> {
                    prg16(0, 8 | bank);
                    prg16(1, 15);
                }
            }
        }
        chr8(0);
        mirroringFromControl();
        final boolean enabled = (prgReg & 0x10) == 0;
        prgRamBank(0, enabled, enabled);
    }

    /**
     * The MMC1's hot fields where this board's words put them: its lock and running flag follow
     * A12 in word 3, so A12 is that word's bit 33 (the lock's 32 bits and the flag below it).
     */
    @Override
    protected long hotDigestTerm() {
        return digestWeight(1) * cycles() + digestWeight(3) * ((a12High() ? 1L : 0L) << 33);
    }

    @Override
    protected void registers(StateVisitor s) {
        super.registers(s);
        lock = s.i32("eventLock", lock, 0, 2);
        running = s.bool("eventRunning", running);
        start = s.i64("eventStart", start, 0, Long.MAX_VALUE);
    }
}
