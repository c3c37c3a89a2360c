package lockstep.nes.verifier;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * Where one engine thread's time went, read by the thread itself as it ends: its wall time, its
 * CPU time, and the time it spent parked, sleeping or waiting (WAITING and TIMED_WAITING) or
 * blocked on a monitor (BLOCKED), as the JVM's thread statistics count them. The waiting and
 * blocked times are counted only while thread contention monitoring is on
 * ({@link ThreadMXBean#setThreadContentionMonitoringEnabled}, which the benchmark turns on);
 * otherwise they are -1.
 */
public record EngineThreadTimes(String thread, long wallNanos, long cpuNanos, long parkedOrBlockedMillis) {

    /** The calling thread's times, {@code wallNanos} being how long it ran. */
    static EngineThreadTimes ofCurrentThread(long wallNanos) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu = mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : -1;
        long parked = -1;
        if (mx.isThreadContentionMonitoringSupported() && mx.isThreadContentionMonitoringEnabled()) {
            ThreadInfo info = mx.getThreadInfo(Thread.currentThread().getId());
            if (info != null && info.getWaitedTime() >= 0 && info.getBlockedTime() >= 0) {
                parked = info.getWaitedTime() + info.getBlockedTime();
            }
        }
        return new EngineThreadTimes(Thread.currentThread().getName(), wallNanos, cpu, parked);
    }
}
