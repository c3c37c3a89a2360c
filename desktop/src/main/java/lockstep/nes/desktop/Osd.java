package lockstep.nes.desktop;

import java.util.ArrayList;
import java.util.List;

/**
 * On-screen messages: each confirms an action and stays for a number of displayed frames
 * (counted, not timed, so tests see the same thing every run). The newest few are shown.
 */
public final class Osd {
    /** About three seconds at 60 Hz. */
    public static final int LIFETIME = 180;
    /** Messages fade out over their last second. */
    public static final int FADE = 60;
    private static final int SHOWN = 4;

    private record Message(String text, long until) {
    }

    private final List<Message> messages = new ArrayList<>();
    private long now;
    private int version;

    public void post(String text) {
        messages.add(new Message(text, now + LIFETIME));
        if (messages.size() > SHOWN) {
            messages.remove(0);
        }
        version++;
    }

    /** One displayed frame has passed. */
    public void tick() {
        now++;
        if (messages.removeIf(m -> m.until <= now)) {
            version++;
        }
    }

    /** The messages on screen, oldest first. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Message m : messages) {
            out.add(m.text);
        }
        return out;
    }

    /**
     * How opaque the messages are drawn, 0-256: 256 while the oldest shown has more than
     * {@link #FADE} frames left, then falling to 0 as it runs out, so messages fade from the
     * picture instead of covering it until they vanish.
     */
    public int opacity() {
        if (messages.isEmpty()) {
            return 0;
        }
        long left = messages.get(0).until - now;
        return (int) Math.max(0, Math.min(256, left * 256 / FADE));
    }

    /** The newest message, or null. */
    public String last() {
        return messages.isEmpty() ? null : messages.get(messages.size() - 1).text;
    }

    /** Changes whenever the shown lines change (to skip redrawing). */
    public int version() {
        return version;
    }
}
