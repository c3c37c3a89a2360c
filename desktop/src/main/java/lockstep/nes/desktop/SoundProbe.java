package lockstep.nes.desktop;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells, before OpenAL is asked, that a Linux machine has nowhere to play sound: no ALSA devices
 * and no PulseAudio or PipeWire server. Asking OpenAL anyway would fail too, after the ALSA
 * library has printed a screenful of complaints (a CI machine under Xvfb).
 */
final class SoundProbe {
    private SoundProbe() {
    }

    /** The reason there is no sound output, or null when there may be one. */
    static String nowhereToPlay() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return null;
        }
        if (Files.isDirectory(Path.of("/dev/snd")) || System.getenv("PULSE_SERVER") != null
                || System.getenv("ALSOFT_DRIVERS") != null) {
            // A sound device, a remote server, or OpenAL Soft told which backend to use.
            return null;
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty()
                && (Files.exists(Path.of(runtime, "pulse", "native")) || Files.exists(Path.of(runtime, "pipewire-0")))) {
            return null;
        }
        if (Files.exists(Path.of("/run/pulse/native")) || Files.exists(Path.of("/var/run/pulse/native"))) {
            return null;
        }
        return "no /dev/snd and no PulseAudio or PipeWire server";
    }
}
