package lockstep.nes.desktop;

import lockstep.nes.core.Console;

/**
 * The window's sound: the sink opened (OpenAL, or a timer when there is nowhere to play or sound
 * is off), and an engine's samples moved into it, resampled to keep the queue at its target.
 */
final class AudioPump {
    private static final int RATE = 48_000;

    private final RateControl rateControl = new RateControl();
    private final short[] pcm = new short[8192];
    private final short[] resampled = new short[8192 * 2];
    private final AudioSink sink;

    private AudioPump(AudioSink sink) {
        this.sink = sink;
    }

    /** OpenAL when {@code enabled} and there is somewhere to play, else a timer saying why not. */
    static AudioPump open(boolean enabled) {
        String why = "disabled by --no-audio";
        if (enabled && SoundProbe.nowhereToPlay() != null) {
            why = SoundProbe.nowhereToPlay();
        } else if (enabled) {
            String[] reason = {""};
            AudioSink al = OpenAlAudio.open(RATE, reason);
            if (al != null) {
                return new AudioPump(al);
            }
            why = reason[0];
        }
        return new AudioPump(new NullAudio(RATE, RATE / 4, why));
    }

    AudioSink sink() {
        return sink;
    }

    /** {@code console}'s samples so far into the sink, resampled toward a queue of {@code target}. */
    void push(Console console, int target) {
        var out = console.apu().audio();
        int n;
        while ((n = out.read(pcm, 0, pcm.length)) > 0) {
            int k = rateControl.process(pcm, n, RateControl.ratio(sink.queued(), target), resampled);
            sink.write(resampled, k);
        }
    }

    /** {@code console}'s samples so far dropped: no sound while paused, rewinding or fast-forwarding. */
    void drain(Console console) {
        var out = console.apu().audio();
        while (out.read(pcm, 0, pcm.length) > 0) {
            // dropped
        }
    }
}
