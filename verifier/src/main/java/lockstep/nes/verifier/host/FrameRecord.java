package lockstep.nes.verifier.host;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One frame of a host's frame log: the input frame index, CPU cycles and PPU frame counter at the
 * frame's end, 64-bit hashes of the picture, CPU RAM and the frame's audio samples (with their
 * count), and the state hash (SHA-256 of the canonical snapshot).
 */
public record FrameRecord(int frame, long cycles, long ppuFrame, long pixelHash, long ramHash, long audioHash,
                          int audioSamples, byte[] stateHash) {

    static FrameRecord read(HostProtocol.Payload p) throws java.io.IOException {
        return new FrameRecord(p.i32(), p.i64(), p.i64(), p.i64(), p.i64(), p.i64(), p.i32(), p.raw(32));
    }

    public String stateHashHex() {
        return lockstep.nes.core.snapshot.RomId.hex(stateHash);
    }

    /** Names of the observables that differ from {@code o} (empty when the records agree). */
    public List<String> differences(FrameRecord o) {
        List<String> d = new ArrayList<>();
        if (frame != o.frame) {
            d.add("frame");
        }
        if (cycles != o.cycles) {
            d.add("cycles");
        }
        if (ppuFrame != o.ppuFrame) {
            d.add("ppuFrame");
        }
        if (pixelHash != o.pixelHash) {
            d.add("pixels");
        }
        if (ramHash != o.ramHash) {
            d.add("ram");
        }
        if (audioHash != o.audioHash || audioSamples != o.audioSamples) {
            d.add("audio");
        }
        if (!Arrays.equals(stateHash, o.stateHash)) {
            d.add("state");
        }
        return d;
    }

    @Override
    public boolean equals(Object x) {
        return x instanceof FrameRecord o && differences(o).isEmpty();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(cycles) * 31 + Long.hashCode(pixelHash);
    }

    @Override
    public String toString() {
        return String.format("frame %d: cycles=%d ppuFrame=%d pixels=%016x ram=%016x audio=%016x/%d state=%s", frame,
                cycles, ppuFrame, pixelHash, ramHash, audioHash, audioSamples, stateHashHex());
    }
}
