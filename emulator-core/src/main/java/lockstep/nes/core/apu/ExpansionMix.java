package lockstep.nes.core.apu;

import lockstep.nes.state.StateVisitor;

/**
 * Several sound chips on one audio-in pin (an NSF that asks for more than one): each stepped
 * every cycle, their outputs summed (held within {@link #MAX_OUTPUT}), the mix quiet while all of
 * them are. Each part's state is a section of its own, named as given.
 */
public final class ExpansionMix extends ExpansionAudio {
    private final ExpansionAudio[] parts;
    private final String[] names;

    /** The mix of {@code parts}, described under {@code names} (one each). */
    public ExpansionMix(ExpansionAudio[] parts, String[] names) {
        if (parts.length != names.length) {
            throw new IllegalArgumentException(parts.length + " parts, " + names.length + " names");
        }
        this.parts = parts.clone();
        this.names = names.clone();
    }

    @Override
    void attach(Apu apu) {
        super.attach(apu);
        // Each part catches the APU up before the CPU touches it, as it would on its own board.
        for (ExpansionAudio p : parts) {
            p.attach(apu);
        }
    }

    @Override
    public void power() {
        for (ExpansionAudio p : parts) {
            p.power();
        }
    }

    @Override
    protected void step() {
        for (ExpansionAudio p : parts) {
            p.step();
        }
    }

    @Override
    protected int output() {
        int sum = 0;
        for (ExpansionAudio p : parts) {
            sum += p.output();
        }
        return Math.max(-MAX_OUTPUT, Math.min(MAX_OUTPUT, sum));
    }

    @Override
    protected int quietSpan() {
        int span = Integer.MAX_VALUE;
        for (ExpansionAudio p : parts) {
            span = Math.min(span, p.quietSpan());
        }
        return span;
    }

    @Override
    protected void skip(int n) {
        for (ExpansionAudio p : parts) {
            p.skip(n);
        }
    }

    @Override
    public void state(StateVisitor s) {
        for (int i = 0; i < parts.length; i++) {
            s.section(names[i], parts[i]);
        }
    }
}
