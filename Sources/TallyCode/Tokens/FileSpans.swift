/// Which file each token of a joined token list came from: a code source's files of one
/// language are read as one list (issue 49), so that a call in one file resolves a constant,
/// object, enum or list declared in another.
struct FileSpans: Sendable {
    /// Each file, in order.
    let files: [CodeFile]
    /// The index of each file's first token.
    let firstToken: [Int]
    /// The offset of each file's first byte in the joined source.
    let firstByte: [Int]

    init(files: [CodeFile], firstToken: [Int], firstByte: [Int]) {
        self.files = files
        self.firstToken = firstToken
        self.firstByte = firstByte
    }

    /// One file alone.
    init(_ file: CodeFile) {
        self.init(files: [file], firstToken: [0], firstByte: [0])
    }

    /// The file of token `i` (by its index in `files`).
    func file(of i: Int) -> Int {
        var low = 0, high = firstToken.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstToken[middle] <= i { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The tokens of file `n`.
    func tokens(of n: Int, count: Int) -> Range<Int> {
        firstToken[n]..<(n + 1 < firstToken.count ? firstToken[n + 1] : count)
    }

    func sameFile(_ a: Int, _ b: Int) -> Bool { files.count == 1 || file(of: a) == file(of: b) }
}
