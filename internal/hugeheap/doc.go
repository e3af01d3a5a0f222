// Package hugeheap backs the first 32 MB of the lakesql command's Go heap
// with transparent huge pages, where the kernel gives them only to memory
// that asks (Linux with /sys/kernel/mm/transparent_hugepage/enabled set to
// madvise, the default of Debian and Ubuntu). The command imports it for
// that alone; elsewhere it does nothing.
//
// Why: a `lakesql -e` process touches a fresh 4 KB page for every 4 KB its
// package initialisers, metadata reads and scans allocate — about 1,300
// page faults for the one-day query — and on a virtual machine each fault
// costs 10–20 µs. One 2 MB huge page replaces 512 of them. With the Go
// runtime no longer asking for huge pages itself (Go 1.21.1 stopped), this
// package asks, once, early: it imports only the runtime, syscall and
// bytes, so Go initialises it soon after syscall (about 40th of 430
// packages, 7 ms in), before the initialisers that allocate; and it has
// the kernel collapse the few megabytes the runtime touched before into
// huge pages (MADV_COLLAPSE), which a fault no longer would.
//
// The heap's address range stays advised for the life of the process, so a
// long-running shell or server may hold up to 32 MB more than it uses when
// the kernel's khugepaged fills in a partly used huge page.
package hugeheap
