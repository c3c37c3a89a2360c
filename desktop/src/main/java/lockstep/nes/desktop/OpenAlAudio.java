package lockstep.nes.desktop;

import static org.lwjgl.openal.AL10.*;
import static org.lwjgl.openal.ALC10.*;

import java.nio.ShortBuffer;
import java.util.ArrayDeque;

import org.lwjgl.openal.AL;
import org.lwjgl.openal.ALC;
import org.lwjgl.openal.ALCCapabilities;
import org.lwjgl.system.MemoryUtil;

/**
 * Streams through OpenAL: one source fed with a small pool of buffers (a frame's samples
 * each), so the latency is the few frames queued.
 */
final class OpenAlAudio implements AudioSink {
    private static final int BUFFERS = 8;

    private final long device;
    private final long context;
    private final int source;
    private final int rate;
    private final String name;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final ArrayDeque<Integer> sizes = new ArrayDeque<>();
    private final ShortBuffer staging = MemoryUtil.memAllocShort(32768);

    private OpenAlAudio(long device, long context, int rate, String name) {
        this.device = device;
        this.context = context;
        this.rate = rate;
        this.name = name;
        this.source = alGenSources();
        for (int i = 0; i < BUFFERS; i++) {
            free.add(alGenBuffers());
        }
    }

    /** Opens the default device, or returns null with the reason in {@code why[0]}. */
    static OpenAlAudio open(int rate, String[] why) {
        long device = 0;
        try {
            device = alcOpenDevice((java.nio.ByteBuffer) null);
            if (device == 0) {
                why[0] = "OpenAL found no output device";
                return null;
            }
            ALCCapabilities caps = ALC.createCapabilities(device);
            long context = alcCreateContext(device, (java.nio.IntBuffer) null);
            if (context == 0 || !alcMakeContextCurrent(context)) {
                alcCloseDevice(device);
                why[0] = "OpenAL could not create a context";
                return null;
            }
            AL.createCapabilities(caps);
            String name = alcGetString(device, ALC_DEVICE_SPECIFIER);
            return new OpenAlAudio(device, context, rate, name == null ? "default device" : name);
        } catch (Throwable t) {
            if (device != 0) {
                try {
                    alcCloseDevice(device);
                } catch (Throwable ignored) {
                    // the first failure is the one to report
                }
            }
            why[0] = "OpenAL unavailable: " + t.getMessage();
            return null;
        }
    }

    @Override
    public int rate() {
        return rate;
    }

    private void reclaim() {
        int done = alGetSourcei(source, AL_BUFFERS_PROCESSED);
        for (int i = 0; i < done; i++) {
            free.add(alSourceUnqueueBuffers(source));
            sizes.poll();
        }
    }

    @Override
    public void write(short[] samples, int n) {
        reclaim();
        if (free.isEmpty() || n == 0 || n > staging.capacity()) {
            return;
        }
        int buffer = free.poll();
        staging.clear();
        staging.put(samples, 0, n).flip();
        alBufferData(buffer, AL_FORMAT_MONO16, staging, rate);
        alSourceQueueBuffers(source, buffer);
        sizes.add(n);
        if (alGetSourcei(source, AL_SOURCE_STATE) != AL_PLAYING) {
            alSourcePlay(source);
        }
    }

    @Override
    public int queued() {
        reclaim();
        int total = 0;
        for (int s : sizes) {
            total += s;
        }
        return Math.max(0, total - alGetSourcei(source, org.lwjgl.openal.AL11.AL_SAMPLE_OFFSET));
    }

    @Override
    public String description() {
        return "OpenAL: " + name + " at " + rate + " Hz";
    }

    @Override
    public void close() {
        alSourceStop(source);
        reclaim();
        alDeleteSources(source);
        for (int b : free) {
            alDeleteBuffers(b);
        }
        alcMakeContextCurrent(0);
        alcDestroyContext(context);
        alcCloseDevice(device);
        MemoryUtil.memFree(staging);
    }
}
