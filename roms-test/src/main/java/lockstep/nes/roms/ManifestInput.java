package lockstep.nes.roms;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.verifier.InputSource;

/**
 * A manifest entry's input as a lockstep input stream: its button/reset/power events by frame,
 * and the reset a $6000-protocol ROM asks for ($81, answered a few frames later). The reset
 * decision is taken once per frame from the first engine that asks and replayed to the other,
 * so both engines always receive the same input.
 */
public final class ManifestInput implements InputSource {
    private final List<InputEvent> events;
    private final boolean protocol6000;
    private int decidedFrame = -1;
    private boolean resetNow;
    private int resetAt = -1;
    private boolean resetDone;

    public ManifestInput(RomEntry entry) {
        List<InputEvent> ev = new ArrayList<>(entry.input());
        ev.sort(Comparator.comparingInt(InputEvent::frame));
        this.events = ev;
        this.protocol6000 = entry.family() == Family.STATUS_6000;
    }

    @Override
    public void apply(int frame, Console console) {
        if (frame != decidedFrame) {
            decidedFrame = frame;
            resetNow = decideReset(frame, console);
        } else if (protocol6000) {
            // The same reads on the other engine, unused: a read below $8000 catches that engine's
            // PPU up, and two engines must catch up alike to stay represented alike.
            status(console);
        }
        for (InputEvent e : events) {
            if (e.frame() != frame) {
                continue;
            }
            if (e.power()) {
                console.power();
            } else if (e.reset()) {
                console.reset();
            }
            if (e.buttons() != null) {
                console.setButtons(e.port(), e.mask());
            }
        }
        if (resetNow) {
            console.reset();
        }
    }

    /** The status byte at $6000, or -1 without the $6001-$6003 signature. */
    private static int status(Console c) {
        boolean signature = c.peek(0x6001) == 0xDE && c.peek(0x6002) == 0xB0 && c.peek(0x6003) == 0x61;
        int status = c.peek(0x6000);
        return signature ? status : -1;
    }

    private boolean decideReset(int frame, Console c) {
        if (!protocol6000) {
            return false;
        }
        int status = status(c);
        boolean signature = status >= 0;
        status &= 0xFF;
        if (signature && status == 0x81 && resetAt < 0 && !resetDone) {
            resetAt = frame + 8;
        } else if (signature && status != 0x81) {
            resetDone = false;
        }
        if (resetAt >= 0 && frame >= resetAt) {
            resetAt = -1;
            resetDone = true;
            return true;
        }
        return false;
    }
}
