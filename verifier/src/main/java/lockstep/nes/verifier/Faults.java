package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.state.Stateful;

/**
 * The injected faults of a run, each one-shot: it fires once, at its cycle, on its engine.
 * Thread-safe for one thread per engine (each fault belongs to one engine). Public for the engine
 * host, which arms the faults of its one engine (index 0) from the INJECT request.
 */
public final class Faults {
    private final List<FaultSpec> specs;
    private final boolean[] fired;
    /** Planted engine differences (tests): see {@link #plant}. */
    private final List<Plant> plants = new ArrayList<>();

    public Faults(List<FaultSpec> specs) {
        this.specs = List.copyOf(specs);
        this.fired = new boolean[specs.size()];
    }

    /**
     * A change engine {@code engine} makes to its own state after it completes {@code cycle}, as
     * an engine built differently would (one whose ALU computes a flag otherwise, say): no fault
     * spec describes it, the partner is not revisited for it and no chain folds it, so only what
     * the checks see of its effects reveals it. For tests of what each check sees; re-armed and
     * replayed with the faults, as part of the engine.
     */
    record Plant(int engine, long cycle, java.util.function.Consumer<Console> change, boolean[] fired) {
    }

    /** Plants {@code change} into engine {@code engine} after its cycle {@code cycle} (see {@link Plant}). */
    void plant(int engine, long cycle, java.util.function.Consumer<Console> change) {
        plants.add(new Plant(engine, cycle, change, new boolean[1]));
    }

    /** True if engine {@code engine} must skip the cycle that would bring it to {@code cycle}. */
    public boolean skip(int engine, long cycle) {
        for (int i = 0; i < fired.length; i++) {
            FaultSpec f = specs.get(i);
            if (f.kind() == FaultSpec.Kind.SKIP_CYCLE && f.engine() == engine && f.cycle() == cycle && !fired[i]) {
                fired[i] = true;
                return true;
            }
        }
        return false;
    }

    /** Milliseconds engine {@code engine} stalls before the cycle that brings it to {@code cycle}. */
    public long stall(int engine, long cycle) {
        for (int i = 0; i < fired.length; i++) {
            FaultSpec f = specs.get(i);
            if (f.kind() == FaultSpec.Kind.STALL && f.engine() == engine && f.cycle() == cycle && !fired[i]) {
                fired[i] = true;
                return f.value();
            }
        }
        return 0;
    }

    /**
     * Applies the state faults of engine {@code engine} due after it completed {@code cycle};
     * true when one was applied (planted changes, {@link #plant}, are made too but not counted).
     */
    public boolean afterCycle(int engine, long cycle, Console c) {
        boolean applied = false;
        for (int i = 0; i < fired.length; i++) {
            FaultSpec f = specs.get(i);
            if (f.engine() != engine || f.cycle() != cycle || fired[i]) {
                continue;
            }
            if (apply(f, c)) {
                fired[i] = true;
                applied = true;
            }
        }
        for (Plant p : plants) {
            if (p.engine() == engine && p.cycle() == cycle && !p.fired()[0]) {
                p.fired()[0] = true;
                p.change().accept(c);
            }
        }
        return applied;
    }

    /** True for the faults that change a state value (through a poke, {@link FieldPoke}). */
    public static boolean changesState(FaultSpec f) {
        return switch (f.kind()) {
            case RAM_BITFLIP, VRAM_BITFLIP, REG -> true;
            default -> false;
        };
    }

    /**
     * Whether the partner of {@code f}'s engine is revisited at its cycle: after a state fault
     * (whose poke catches the faulted engine up), and after a stall. A stall changes no state,
     * but it ends the stalled engine's run inside its stretch at that cycle (a chained run folds
     * a counted spin loop as one record, so where a run is cut shows in the chain); the stalled
     * engine is revisited there after its sleep, and its partner too, so both cut their chains,
     * catch up and fold their terms at the same cycle and a stall shows no difference.
     */
    public static boolean revisitsPartner(FaultSpec f) {
        return changesState(f) || f.kind() == FaultSpec.Kind.STALL;
    }

    /**
     * The state faults of the engines other than {@code engine} that have not fired yet, each
     * a revisit of {@code engine} at its cycle ({@link Revisits}); taken when engines start
     * from a checkpoint, so that both engines of that run agree on which faults will fire.
     */
    public Revisits partnerRevisits(int engine) {
        List<FaultSpec> unfired = new ArrayList<>();
        for (int i = 0; i < fired.length; i++) {
            if (!fired[i]) {
                unfired.add(specs.get(i));
            }
        }
        return Revisits.forPartnerFaults(unfired, engine);
    }

    /**
     * Refuses, before a run, a state fault that {@code root} (an engine of the ROM to run) could
     * not take: a {@code reg} field it does not describe or a value out of the field's range, a
     * RAM or VRAM address past the memory. Throws IllegalArgumentException with a one-line reason
     * naming the spec; changes nothing.
     */
    public static void check(List<FaultSpec> specs, Stateful root) {
        for (FaultSpec f : specs) {
            try {
                switch (f.kind()) {
                    case REG -> FieldPoke.check(root, f.field(), f.value());
                    case RAM_BITFLIP -> FieldPoke.checkElement(root, "console.ram", f.address());
                    case VRAM_BITFLIP -> FieldPoke.checkElement(root, "mapper.ciram", f.address());
                    default -> {
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad --inject '" + f + "': " + e.getMessage());
            }
        }
    }

    /** Applies one state fault to {@code c}; false for faults that are not state changes. */
    static boolean apply(FaultSpec f, Console c) {
        switch (f.kind()) {
            case RAM_BITFLIP -> FieldPoke.flipBit(c, "console.ram", f.address(), f.bit());
            case VRAM_BITFLIP -> FieldPoke.flipBit(c, "mapper.ciram", f.address(), f.bit());
            case REG -> FieldPoke.set(c, f.field(), f.value());
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies which faults and planted changes have fired into {@code into} (sized by
     * {@link #flagCount}), to {@link #restoreFired restore} when a stretch is re-run.
     */
    void saveFired(boolean[] into) {
        System.arraycopy(fired, 0, into, 0, fired.length);
        for (int i = 0; i < plants.size(); i++) {
            into[fired.length + i] = plants.get(i).fired()[0];
        }
    }

    /** Which faults and planted changes had fired, as {@link #saveFired} copied them. */
    void restoreFired(boolean[] from) {
        System.arraycopy(from, 0, fired, 0, fired.length);
        for (int i = 0; i < plants.size(); i++) {
            plants.get(i).fired()[0] = from[fired.length + i];
        }
    }

    /** The size of {@link #saveFired}'s copy. */
    int flagCount() {
        return fired.length + plants.size();
    }

    /**
     * The specs that fired since {@code before} ({@link #saveFired}'s copy) and are due at or
     * before {@code upTo}: what a re-run from where the copy was taken replays.
     */
    List<FaultSpec> firedSince(boolean[] before, long upTo) {
        List<FaultSpec> out = new ArrayList<>();
        for (int i = 0; i < fired.length; i++) {
            if (fired[i] && !before[i] && specs.get(i).cycle() <= upTo) {
                out.add(specs.get(i));
            }
        }
        return out;
    }

    /**
     * Re-arms the specs that fired since {@code before} and are due after {@code cycle}: an engine
     * that ran ahead of the comparison fired them, and the run is rolled back to before them.
     */
    void rearmFiredSince(boolean[] before, long cycle) {
        for (int i = 0; i < fired.length; i++) {
            if (fired[i] && !before[i] && specs.get(i).cycle() > cycle) {
                fired[i] = false;
            }
        }
    }

    /**
     * The earliest cycle at or after {@code from} at which something not yet fired is due on
     * engine {@code engine} (a fault of any kind, or a planted change), or {@link Long#MAX_VALUE}:
     * reads only that engine's faults, so each engine's thread may ask.
     */
    public long nextDue(int engine, long from) {
        long due = Long.MAX_VALUE;
        for (int i = 0; i < fired.length; i++) {
            FaultSpec f = specs.get(i);
            long c = f.cycle();
            if (f.engine() == engine && !fired[i] && c >= from && c < due) {
                due = c;
            }
        }
        for (Plant p : plants) {
            if (p.engine() == engine && !p.fired()[0] && p.cycle() >= from && p.cycle() < due) {
                due = p.cycle();
            }
        }
        return due;
    }

    /**
     * The earliest cycle at or after {@code from} at which a fault not yet fired is due (a
     * same-thread loop steps both engines without asking {@link #skip} or {@link #afterCycle}
     * while both stay before it), or {@link Long#MAX_VALUE}.
     */
    public long nextDue(long from) {
        return Math.min(nextDue(0, from), nextDue(1, from));
    }

    /** How many specs there are. */
    public int size() {
        return fired.length;
    }

    /** Whether spec {@code i} (in the order given) has fired. */
    public boolean fired(int i) {
        return fired[i];
    }

    /** The specs that fired so far, in order. */
    public List<FaultSpec> firedSpecs() {
        List<FaultSpec> out = new ArrayList<>();
        for (int i = 0; i < fired.length; i++) {
            if (fired[i]) {
                out.add(specs.get(i));
            }
        }
        return out;
    }

    /**
     * A fresh set of the given specs, none fired, with this set's planted changes (part of the
     * engines), none fired either: for a replay.
     */
    Faults replay(List<FaultSpec> replayed) {
        Faults f = new Faults(replayed);
        for (Plant p : plants) {
            f.plant(p.engine(), p.cycle(), p.change());
        }
        return f;
    }
}
