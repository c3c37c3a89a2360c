package lockstep.nes.core.cart.konami;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.part.VrcIrq;

/**
 * What the VRC6 and the VRC7 share beyond their registers: the VRC IRQ counter, clocked every
 * CPU cycle, drives the cartridge's IRQ line, and the chip's sound goes to the audio-in pin.
 * Each board decodes its own registers and visits {@link #irq} and its chip in its state.
 */
abstract class VrcSoundBoard extends Mapper {
    protected final VrcIrq irq = new VrcIrq();
    private final ExpansionAudio audio;

    VrcSoundBoard(Cartridge cart, ExpansionAudio audio) {
        super(cart, Math.max(8192, cart.totalPrgRamSize()));
        this.audio = audio;
    }

    @Override
    protected final int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.AUDIO;
    }

    @Override
    public final ExpansionAudio expansionAudio() {
        return audio;
    }

    @Override
    public final void cpuCycle() {
        irq.cpuCycle();
    }

    @Override
    public final boolean irq() {
        return irq.line();
    }
}
